package dev.tclab.lesson;

import java.util.List;
import java.util.Map;

/**
 * The front matter of a lesson.md.
 *
 * @param requires      kernel features without which the lesson cannot run (KernelCapabilities names)
 * @param uses          optional kernel features that guarded blocks choose on
 * @param prerequisites slugs of lessons to do first
 * @param parameters    per-learner parameters by name, in file order
 */
public record LessonMeta(
        String title,
        String summary,
        String level,
        int minutes,
        List<String> requires,
        List<String> uses,
        List<String> prerequisites,
        Map<String, Parameter> parameters) {

    public static final List<String> LEVELS = List.of("beginner", "intermediate", "advanced");

    public LessonMeta {
        requires = List.copyOf(requires);
        uses = List.copyOf(uses);
        prerequisites = List.copyOf(prerequisites);
        parameters = Map.copyOf(parameters);
    }

    /** What a lesson whose lesson.md cannot be read shows in the catalog. */
    public static LessonMeta unreadable(String slug) {
        return new LessonMeta(slug, "", "beginner", 0, List.of(), List.of(), List.of(), Map.of());
    }
}
