package dev.tclab.grading.spec;

import dev.tclab.yaml.FileProblem;
import java.util.List;

/** A check spec with problems; each is located (file, line, field) so the author can go straight to it. */
public class CheckSpecException extends Exception {

    private final List<FileProblem> problems;

    public CheckSpecException(List<FileProblem> problems) {
        super(
                problems.size() == 1
                        ? problems.get(0).toString()
                        : problems.size() + " problems in a check, first: " + problems.get(0));
        this.problems = List.copyOf(problems);
    }

    public List<FileProblem> problems() {
        return problems;
    }
}
