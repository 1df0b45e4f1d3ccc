package dev.tclab.lesson;

import java.util.List;

/**
 * A per-learner value declared in lesson.md, used as {@code {{name}}} in the lesson's text, commands, checks,
 * quizzes and solutions. A related parameter sets several names at once from one choice of tuples
 * ({@code names: [a_rate, b_rate]}, {@code choices: [[12, 8], [10, 10]]}), so values that belong together (a split
 * of one link) are drawn together.
 *
 * @param names  the names one choice sets, in tuple order: just {@code name} for a plain parameter
 * @param tuples the choices a learner may get, each with one value per name; each learner gets one, always the same
 */
public record Parameter(String name, List<String> names, List<List<String>> tuples, String description) {

    public Parameter {
        names = List.copyOf(names);
        tuples = tuples.stream().map(List::copyOf).toList();
    }

    /** A plain parameter: one name, one value per choice. */
    public Parameter(String name, List<String> choices, String description) {
        this(name, List.of(name), choices.stream().map(List::of).toList(), description);
    }

    /** The choices as written: the values of a plain parameter, {@code "12, 8"} for a tuple. */
    public List<String> choices() {
        return tuples.stream().map(t -> String.join(", ", t)).toList();
    }
}
