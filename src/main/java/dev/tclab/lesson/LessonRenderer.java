package dev.tclab.lesson;

import dev.tclab.lesson.markdown.BlockContext;
import dev.tclab.lesson.markdown.LessonMarkdown;
import dev.tclab.quiz.OptionOrder;
import dev.tclab.quiz.Quiz;
import dev.tclab.quiz.QuizAttempt;
import dev.tclab.yaml.FileProblem;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Renders a lesson's markdown with given parameter values. Validation renders it too, with every parameter's
 * first choice and every guarded block kept, so what is validated is exactly what learners get.
 */
public final class LessonRenderer {

    private LessonRenderer() {}

    /**
     * The lesson with every quiz's options in the author's order (validation, self-tests).
     *
     * @param kernelHas whether the host has a kernel feature; null to keep every guarded block (validation)
     * @param attempts  the learner's latest quiz attempts by quiz id
     */
    public static LessonView render(
            Lesson lesson,
            Map<String, String> values,
            Predicate<String> kernelHas,
            Map<String, QuizAttempt> attempts,
            CheckBlockValidator checks) {
        return render(lesson, values, kernelHas, attempts, OptionOrder::authored, checks);
    }

    /**
     * @param kernelHas    whether the host has a kernel feature; null to keep every guarded block (validation)
     * @param attempts     the learner's latest quiz attempts by quiz id
     * @param optionOrders the order the learner sees each quiz's options in
     */
    public static LessonView render(
            Lesson lesson,
            Map<String, String> values,
            Predicate<String> kernelHas,
            Map<String, QuizAttempt> attempts,
            Function<Quiz, OptionOrder> optionOrders,
            CheckBlockValidator checks) {
        Set<String> guardFeatures = new LinkedHashSet<>(lesson.meta().requires());
        guardFeatures.addAll(lesson.meta().uses());
        BlockContext.Lesson shared = new BlockContext.Lesson(
                lesson.slug(), lesson.topology(), guardFeatures, kernelHas, checks, attempts, optionOrders);
        Map<String, OptionOrder> orders = new HashMap<>();
        Map<String, String> seenIds = new HashMap<>();
        List<FileProblem> problems = new ArrayList<>();
        List<BlockContext.CommandLine> commandLines = new ArrayList<>();
        List<FileProblem> warnings = new ArrayList<>();

        BlockContext introContext = new BlockContext(shared, lesson.introFile(), null, seenIds);
        String intro =
                LessonMarkdown.render(Parameters.substitute(lesson.intro(), values), lesson.introLine(), introContext);
        problems.addAll(introContext.problems());
        warnings.addAll(introContext.warnings());
        commandLines.addAll(introContext.commandLines());
        orders.putAll(introContext.optionOrders());

        List<LessonView.StepView> steps = new ArrayList<>();
        for (Step step : lesson.steps()) {
            BlockContext context = new BlockContext(shared, step.file(), step.id(), seenIds);
            String html = LessonMarkdown.render(Parameters.substitute(step.body(), values), step.bodyLine(), context);
            problems.addAll(context.problems());
            warnings.addAll(context.warnings());
            commandLines.addAll(context.commandLines());
            orders.putAll(context.optionOrders());
            steps.add(new LessonView.StepView(
                    step.id(),
                    Parameters.substitute(step.title(), values),
                    html,
                    List.copyOf(context.quizzes()),
                    List.copyOf(context.checks()),
                    List.copyOf(context.solutions())));
        }
        return new LessonView(
                lesson,
                values,
                intro,
                List.copyOf(introContext.quizzes()),
                steps,
                problems,
                List.copyOf(commandLines),
                Map.copyOf(orders),
                List.copyOf(warnings));
    }
}
