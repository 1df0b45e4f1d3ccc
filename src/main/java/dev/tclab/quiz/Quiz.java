package dev.tclab.quiz;

import java.util.List;
import java.util.stream.IntStream;

/**
 * A multiple-choice question of a lesson. Its answers and explanations stay on the server until the learner
 * has answered.
 *
 * @param multiple true when the learner picks all options that apply; false for exactly one
 */
public record Quiz(String id, String question, boolean multiple, List<Option> options) {

    public Quiz {
        options = List.copyOf(options);
    }

    /** One answer the learner can pick, with why it is right or wrong. */
    public record Option(String text, boolean correct, String why) {}

    /** Indexes of the correct options. */
    public List<Integer> correctChoices() {
        return IntStream.range(0, options.size())
                .filter(i -> options.get(i).correct())
                .boxed()
                .toList();
    }
}
