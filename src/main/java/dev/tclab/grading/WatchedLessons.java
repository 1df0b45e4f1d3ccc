package dev.tclab.grading;

import dev.tclab.grading.spec.CheckSpecException;
import dev.tclab.grading.spec.CheckSpecParser;
import dev.tclab.lesson.Lesson;
import dev.tclab.lesson.LessonRenderer;
import dev.tclab.lesson.LessonView;
import dev.tclab.lesson.Parameters;
import dev.tclab.lesson.markdown.BlockContext.CheckRef;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether a lesson has a check marked {@code watch: true} for any learner, so that the background watch renders a
 * lab's lesson for its learner only when it can find something to run there. Rendering a lesson for one learner
 * costs 60-170 ms of CPU (tbf-basics, busy 2-core host), and a cold class's 30 labs turning running each had theirs
 * rendered by the watch for nothing: no built-in lesson watches a check. Decided once per loaded lesson, as the
 * loader validates it: for every parameter choice, with every guarded block kept (any kernel's), so the checks seen
 * are every check any learner's page can hold.
 */
final class WatchedLessons {

    private record Known(Lesson lesson, boolean watches) {}

    /** The answer for the lesson as loaded; a reloaded lesson (another object) is looked at again. */
    private final Map<String, Known> bySlug = new ConcurrentHashMap<>();

    boolean watchesAny(Lesson lesson) {
        Known known = bySlug.get(lesson.slug());
        if (known != null && known.lesson() == lesson) {
            return known.watches();
        }
        boolean watches = Parameters.everyChoice(lesson.meta().parameters()).stream()
                .map(values -> LessonRenderer.render(lesson, values, null, Map.of(), (file, line, yaml) -> List.of()))
                .flatMap(view -> view.steps().stream())
                .map(LessonView.StepView::checks)
                .anyMatch(checks -> checks.stream().anyMatch(WatchedLessons::watched));
        bySlug.put(lesson.slug(), new Known(lesson, watches));
        return watches;
    }

    /** Whether the check is re-run in the background until it passes; a check that does not parse is not. */
    static boolean watched(CheckRef check) {
        try {
            return CheckSpecParser.parse(check.file(), check.yaml(), check.line())
                    .watch();
        } catch (CheckSpecException e) {
            return false;
        }
    }
}
