package dev.tclab.quiz;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** Grades a quiz answer on the server. */
public final class QuizGrader {

    /** The verdict, with explanations of the chosen options (of every option when correct) and the verdict in words. */
    public record Result(boolean correct, List<Explanation> explanations, String message) {}

    public record Explanation(int option, boolean correct, String why) {}

    /** The answer cannot be graded: no choice, a choice that does not exist, or several for a single-choice quiz. */
    public static class InvalidAnswerException extends Exception {
        public InvalidAnswerException(String message) {
            super(message);
        }
    }

    private QuizGrader() {}

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
        return new Result(correct, explanations, message(quiz, chosen));
    }

    /**
     * The verdict on {@code chosen} in words. A wrong answer to a pick-all quiz says how many of the choices are
     * wrong and how many right options were left out, since the explanations shown are of the chosen ones only.
     */
    public static String message(Quiz quiz, Collection<Integer> chosen) {
        List<Integer> right = quiz.correctChoices();
        if (chosen.size() == right.size() && chosen.containsAll(right)) {
            return "Correct! Every option is explained above.";
        }
        if (!quiz.multiple()) {
            return "Not quite. Read why next to your choice, then try again.";
        }
        long wrong = chosen.stream().filter(c -> !right.contains(c)).count();
        long missed = right.stream().filter(r -> !chosen.contains(r)).count();
        List<String> parts = new ArrayList<>();
        if (wrong > 0) {
            parts.add(wrong + " of your choices " + (wrong == 1 ? "is" : "are") + " not right (read why next to it)");
        }
        if (missed > 0) {
            parts.add("you left out " + missed + " right option" + (missed == 1 ? "" : "s"));
        }
        return "Not quite: " + String.join(", and ", parts) + ". Try again.";
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
