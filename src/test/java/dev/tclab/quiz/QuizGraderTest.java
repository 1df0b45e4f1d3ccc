package dev.tclab.quiz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class QuizGraderTest {

    private static final Quiz SINGLE = new Quiz(
            "single",
            "Q?",
            false,
            List.of(
                    new Quiz.Option("a", true, "why a"),
                    new Quiz.Option("b", false, "why b"),
                    new Quiz.Option("c", false, "why c")));
    private static final Quiz MULTIPLE = new Quiz(
            "multi",
            "Q?",
            true,
            List.of(
                    new Quiz.Option("a", true, "why a"),
                    new Quiz.Option("b", true, "why b"),
                    new Quiz.Option("c", false, "why c")));

    @Test
    void shouldExplainOnlyTheChosenOptionOfAWrongAnswer() throws Exception {
        QuizGrader.Result result = QuizGrader.grade(SINGLE, List.of(2));
        assertFalse(result.correct());
        assertEquals(List.of(new QuizGrader.Explanation(2, false, "why c")), result.explanations());
    }

    @Test
    void shouldExplainEveryOptionOfARightAnswer() throws Exception {
        QuizGrader.Result result = QuizGrader.grade(SINGLE, List.of(0));
        assertTrue(result.correct());
        assertEquals(
                List.of(0, 1, 2),
                result.explanations().stream()
                        .map(QuizGrader.Explanation::option)
                        .toList());
    }

    @Test
    void shouldRequireExactlyTheCorrectSetWhenSeveralApply() throws Exception {
        assertFalse(QuizGrader.grade(MULTIPLE, List.of(0)).correct());
        assertFalse(QuizGrader.grade(MULTIPLE, List.of(0, 1, 2)).correct());
        assertTrue(QuizGrader.grade(MULTIPLE, List.of(1, 0)).correct());
        assertTrue(QuizGrader.grade(MULTIPLE, List.of(0, 1, 1)).correct());
    }

    @Test
    void aWrongPickAllAnswerSaysHowManyRightOptionsWereLeftOut() throws Exception {
        assertEquals(
                "Not quite: you left out 1 right option. Try again.",
                QuizGrader.grade(MULTIPLE, List.of(0)).message());
        assertEquals(
                "Not quite: 1 of your choices is not right (read why next to it), and you left out 2 right options."
                        + " Try again.",
                QuizGrader.grade(MULTIPLE, List.of(2)).message());
        assertEquals(
                "Not quite: 1 of your choices is not right (read why next to it). Try again.",
                QuizGrader.grade(MULTIPLE, List.of(0, 1, 2)).message());
        assertEquals(
                "Correct! Every option is explained above.",
                QuizGrader.grade(MULTIPLE, List.of(1, 0)).message());
        assertEquals(
                "Not quite. Read why next to your choice, then try again.",
                QuizGrader.grade(SINGLE, List.of(1)).message());
    }

    @Test
    void shouldRejectImpossibleAnswers() {
        assertThrows(QuizGrader.InvalidAnswerException.class, () -> QuizGrader.grade(SINGLE, List.of()));
        assertThrows(QuizGrader.InvalidAnswerException.class, () -> QuizGrader.grade(SINGLE, null));
        assertThrows(QuizGrader.InvalidAnswerException.class, () -> QuizGrader.grade(SINGLE, List.of(3)));
        assertThrows(QuizGrader.InvalidAnswerException.class, () -> QuizGrader.grade(SINGLE, List.of(-1)));
        QuizGrader.InvalidAnswerException two =
                assertThrows(QuizGrader.InvalidAnswerException.class, () -> QuizGrader.grade(SINGLE, List.of(0, 1)));
        assertTrue(two.getMessage().contains("exactly one"), two.getMessage());
    }
}
