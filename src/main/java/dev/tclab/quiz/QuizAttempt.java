package dev.tclab.quiz;

import java.util.List;

/**
 * A learner's answer to one quiz.
 *
 * @param choices the option indexes the learner picked, ascending
 */
public record QuizAttempt(String quizId, List<Integer> choices, boolean correct) {

    public QuizAttempt {
        choices = List.copyOf(choices);
    }
}
