package dev.tclab.lesson;

import dev.tclab.runtime.topology.Topology;
import dev.tclab.yaml.FileProblem;
import java.util.List;

/**
 * A lesson as loaded from its folder. A lesson with problems is broken: it is listed with its problems and
 * cannot be opened, while the other lessons keep working. Warnings name what probably grades other than its author
 * meant (see {@link LessonWarnings}); a lesson with warnings only is not broken.
 *
 * @param introFile  the lesson.md's name as shown in problems
 * @param intro      the markdown of lesson.md after its front matter
 * @param introLine  the file line the intro starts on
 * @param topology   the parsed lab.yml, or null when it is missing or broken
 * @param quizIds    ids of every quiz in the lesson, in page order
 * @param warnings   what the lesson lints flag, located like problems; they do not break the lesson
 */
public record Lesson(
        String slug,
        LessonMeta meta,
        String introFile,
        String intro,
        int introLine,
        List<Step> steps,
        Topology topology,
        List<String> quizIds,
        List<FileProblem> problems,
        List<FileProblem> warnings) {

    public Lesson {
        steps = List.copyOf(steps);
        quizIds = List.copyOf(quizIds);
        problems = List.copyOf(problems);
        warnings = List.copyOf(warnings);
    }

    public boolean broken() {
        return !problems.isEmpty();
    }
}
