package dev.tclab.grading.spec;

import dev.tclab.lesson.CheckBlockValidator;
import dev.tclab.yaml.FileProblem;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/** Validates a lesson's check blocks as full check specs, so a lesson with a bad check is listed as broken. */
@ApplicationScoped
public class SpecCheckValidator implements CheckBlockValidator {

    @Override
    public List<FileProblem> validate(String file, int line, String yaml) {
        try {
            CheckSpecParser.parse(file, yaml, line);
            return List.of();
        } catch (CheckSpecException e) {
            return e.problems();
        }
    }
}
