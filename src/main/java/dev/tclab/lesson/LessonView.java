package dev.tclab.lesson;

import dev.tclab.lesson.markdown.BlockContext;
import dev.tclab.quiz.OptionOrder;
import dev.tclab.quiz.Quiz;
import dev.tclab.yaml.FileProblem;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A lesson as one learner sees it: their parameter values substituted, blocks this host cannot run dropped,
 * rendered to HTML.
 *
 * @param parameters the learner's parameter values
 * @param introHtml  lesson.md's body as HTML
 * @param introQuizzes lesson.md's quizzes, each with its options in the learner's order
 * @param problems   block problems met while rendering (none for a valid lesson, whatever the parameters)
 * @param commandLines every line of the cmd and solution blocks shown, in page order
 * @param optionOrders the order each quiz shows its options in, by quiz id
 * @param warnings   warnings about the lesson's text, such as a sentence ending in ':' before a block a guard can hide
 *                   (only when rendered for validation, with every guarded block kept; see LessonWarnings for the rest)
 */
public record LessonView(
        Lesson lesson,
        Map<String, String> parameters,
        String introHtml,
        List<Quiz> introQuizzes,
        List<StepView> steps,
        List<FileProblem> problems,
        List<BlockContext.CommandLine> commandLines,
        Map<String, OptionOrder> optionOrders,
        List<FileProblem> warnings) {

    /** One step, rendered. */
    public record StepView(
            String id,
            String title,
            String html,
            List<Quiz> quizzes,
            List<BlockContext.CheckRef> checks,
            List<BlockContext.SolutionRef> solutions) {}

    /** Every quiz on the page, in page order. */
    public List<Quiz> quizzes() {
        return Stream.concat(introQuizzes.stream(), steps.stream().flatMap(s -> s.quizzes().stream()))
                .toList();
    }

    public Optional<Quiz> quiz(String id) {
        return quizzes().stream().filter(q -> q.id().equals(id)).findFirst();
    }
}
