package dev.tclab.yaml;

import java.util.List;

/** An author's YAML that could not be read (syntax) or does not fit its schema, with every problem and where. */
public class YamlException extends Exception {

    private final List<FileProblem> problems;

    public YamlException(List<FileProblem> problems) {
        super(problems.isEmpty() ? "no problem given" : problems.get(0).toString());
        this.problems = List.copyOf(problems);
    }

    public YamlException(FileProblem problem) {
        this(List.of(problem));
    }

    public List<FileProblem> problems() {
        return problems;
    }
}
