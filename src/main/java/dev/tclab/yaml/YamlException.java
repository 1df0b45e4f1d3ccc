package dev.tclab.yaml;


/** YAML that could not be read at all, with where. */
public class YamlException extends Exception {

    private final FileProblem problem;

    public YamlException(FileProblem problem) {
        super(problem.toString());
        this.problem = problem;
    }

    public FileProblem problem() {
        return problem;
    }
}
