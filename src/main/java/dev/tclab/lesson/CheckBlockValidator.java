package dev.tclab.lesson;

import dev.tclab.yaml.FileProblem;
import java.util.List;

/**
 * Validates the body of a {@code check} block while a lesson is loaded. The grading engine supplies the full
 * check-spec validation; its implementation is {@code dev.tclab.grading.SpecCheckValidator}.
 */
public interface CheckBlockValidator {

    /**
     * @param file the lesson file the block is in
     * @param line the file line of the block's first YAML line
     * @param yaml the block's body, parameters already substituted
     * @return every problem found, located in the lesson file; empty when the check is usable
     */
    List<FileProblem> validate(String file, int line, String yaml);
}
