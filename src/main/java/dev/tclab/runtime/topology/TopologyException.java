package dev.tclab.runtime.topology;

import dev.tclab.yaml.FileProblem;
import java.util.List;
import java.util.stream.Collectors;

/** A lab.yml that cannot be used, with every problem found in it. */
public class TopologyException extends Exception {

    private final List<FileProblem> problems;

    public TopologyException(List<FileProblem> problems) {
        super(problems.stream().map(FileProblem::toString).collect(Collectors.joining("\n")));
        this.problems = List.copyOf(problems);
    }

    public List<FileProblem> problems() {
        return problems;
    }
}
