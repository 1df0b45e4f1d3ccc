package dev.tclab.quiz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.tclab.yaml.FileProblem;
import java.util.List;
import org.junit.jupiter.api.Test;

class QuizParserTest {

    private static List<String> problems(String yaml) {
        QuizParser.Result result = QuizParser.parse("s.md", 10, yaml);
        return result.problems().stream().map(FileProblem::toString).toList();
    }

    @Test
    void shouldReadAValidQuiz() {
        QuizParser.Result result = QuizParser.parse("s.md", 10, """
                id: q1
                question: Which?
                multiple: true
                options:
                  - { text: a, correct: true, why: because }
                  - { text: b, correct: true, why: also }
                  - { text: c, why: not }
                """);
        assertEquals(List.of(), result.problems());
        assertEquals(List.of(0, 1), result.quiz().correctChoices());
        assertEquals(true, result.quiz().multiple());
    }

    @Test
    void shouldRejectQuizWithoutCorrectAnswer() {
        assertEquals(List.of("s.md:13: options: no item is marked 'correct: true'"), problems("""
                id: q1
                question: Which?
                options:
                  - { text: a, why: x }
                  - { text: b, why: y }
                """));
    }

    @Test
    void shouldRejectSeveralCorrectAnswersInASingleChoiceQuiz() {
        assertEquals(
                List.of(
                        "s.md:13: options: with 'multiple' false, exactly one option is correct: mark one, or set 'multiple: true'"),
                problems("""
                        id: q1
                        question: Which?
                        options:
                          - { text: a, correct: true, why: x }
                          - { text: b, correct: true, why: y }
                        """));
    }

    @Test
    void shouldRejectMissingFieldsUnknownFieldsAndASingleOption() {
        assertEquals(
                List.of(
                        "s.md:10: colour: unknown key 'colour'; expected one of id, question, multiple, options",
                        "s.md:10: missing required key 'id' (unique in the lesson: lowercase letters, digits and '-'; it appears in URLs)",
                        "s.md:10: missing required key 'question' (the question; inline markdown such as `code` and {{parameters}} may be used)",
                        "s.md:12: options: needs at least 2 items, found 1 (at least two answers, at least one of them correct)",
                        "s.md:12: options[0]: missing required key 'why' (the explanation the learner reads after choosing this option"
                                + " (after a right answer, of every option))"),
                problems("""
                colour: red
                options:
                  - { text: a, correct: true }
                """).stream().sorted().toList());
    }

    @Test
    void shouldReportBrokenYamlAtItsFileLine() {
        QuizParser.Result result = QuizParser.parse("s.md", 10, "id: q\nquestion: [unclosed\n");
        assertNull(result.quiz());
        assertEquals(1, result.problems().size());
        assertEquals("s.md", result.problems().get(0).file());
        assertEquals(
                true, result.problems().get(0).line() >= 11, result.problems().toString());
    }
}
