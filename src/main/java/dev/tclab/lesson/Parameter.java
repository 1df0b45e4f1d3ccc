package dev.tclab.lesson;

import java.util.List;

/**
 * A per-learner value declared in lesson.md, used as {@code {{name}}} in the lesson's text, commands, checks,
 * quizzes and solutions.
 *
 * @param choices the values a learner may get; each learner gets one, always the same
 */
public record Parameter(String name, List<String> choices, String description) {

    public Parameter {
        choices = List.copyOf(choices);
    }
}
