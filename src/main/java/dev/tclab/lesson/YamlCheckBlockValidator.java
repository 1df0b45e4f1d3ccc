package dev.tclab.lesson;

import dev.tclab.lab.FileProblem;
import dev.tclab.yaml.YamlException;
import dev.tclab.yaml.YamlNode;
import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/** The stand-in check validator: a check must be a YAML mapping. Replaced by declaring another bean. */
@ApplicationScoped
@DefaultBean
public class YamlCheckBlockValidator implements CheckBlockValidator {

    @Override
    public List<FileProblem> validate(String file, int line, String yaml) {
        try {
            YamlNode root = YamlNode.parse(file, yaml, line);
            return root.isMap() ? List.of() : List.of(root.problem("a check is a YAML mapping (measure:, expect:, ...)"));
        } catch (YamlException e) {
            return List.of(e.problem());
        }
    }
}
