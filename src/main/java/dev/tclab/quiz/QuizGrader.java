package dev.tclab.quiz;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** Grades a quiz answer on the server. */
public final class QuizGrader {

    /** The verdict, with explanations of the chosen options (of every option when correct). */
    public record Result(boolean correct, List<Explanation> explanations) {
    }

    public record Explanation(int option, boolean correct, String why) {
    }

    /** The answer cannot be graded: no choice, a choice that does not exist, or several for a single-choice quiz. */
    public static class InvalidAnswerException extends Exception {
        public InvalidAnswerException(String message) {
            super(message);
        }
    }

    private QuizGrader() {
    }

    public static Result grade(Quiz quiz, List<Integer> choices) throws InvalidAnswerException {
        Set<Integer> chosen = validChoices(quiz, choices);
        boolean correct = chosen.equals(new TreeSet<>(quiz.correctChoices()));
        List<Explanation> explanations = new ArrayList<>();
        for (int i = 0; i < quiz.options().size(); i++) {
            if (correct || chosen.contains(i)) {
                Quiz.Option option = quiz.options().get(i);
                explanations.add(new Explanation(i, option.correct(), option.why()));
            }
        }
        return new Result(correct, explanations);
    }

    /** The choices as a sorted set, after checking they make a possible answer. */
    public static Set<Integer> validChoices(Quiz quiz, List<Integer> choices) throws InvalidAnswerException {
        if (choices == null || choices.isEmpty()) {
            throw new InvalidAnswerException("Choose at least one option.");
        }
        Set<Integer> chosen = new TreeSet<>();
        for (Integer choice : choices) {
            if (choice == null || choice < 0 || choice >= quiz.options().size()) {
                throw new InvalidAnswerException("Option " + choice + " does not exist; quiz '" + quiz.id()
                        + "' has options 0 to " + (quiz.options().size() - 1) + ".");
            }
            chosen.add(choice);
        }
        if (!quiz.multiple() && chosen.size() > 1) {
            throw new InvalidAnswerException("Quiz '" + quiz.id() + "' takes exactly one option.");
        }
        return chosen;
    }
}
