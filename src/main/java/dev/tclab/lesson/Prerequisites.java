package dev.tclab.lesson;

import dev.tclab.yaml.FileProblem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Prerequisites that name no known lesson. A lesson is loaded on its own, so this is checked once every lesson
 * that could be named is known (by the validator, which sees the built-in lessons and the author's).
 */
public final class Prerequisites {

    private Prerequisites() {}

    /**
     * @param folder the lesson's folder, read again only to point at the line that names the unknown lesson
     * @param known  slugs of every lesson a prerequisite may name
     */
    public static List<FileProblem> unknown(Lesson lesson, Path folder, Collection<String> known) {
        List<FileProblem> problems = new ArrayList<>();
        for (String slug : lesson.meta().prerequisites()) {
            if (!known.contains(slug)) {
                problems.add(new FileProblem(
                        lesson.introFile(),
                        lineNaming(folder.resolve("lesson.md"), slug),
                        "prerequisites",
                        "no lesson '" + slug + "' exists; name a lesson by its folder name, e.g. "
                                + known.stream()
                                        .filter(s -> !s.equals(lesson.slug()))
                                        .findFirst()
                                        .orElse("tbf-basics")));
            }
        }
        return problems;
    }

    /** The first line at or after the {@code prerequisites:} key that names the slug, or 0 when it is not found. */
    private static int lineNaming(Path lessonMd, String slug) {
        List<String> lines;
        try {
            lines = Files.readAllLines(lessonMd, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return 0;
        }
        int key = 0;
        while (key < lines.size() && !lines.get(key).startsWith("prerequisites:")) {
            key++;
        }
        for (int i = key; i < lines.size(); i++) {
            if (lines.get(i).matches(".*(^|[^a-z0-9-])" + Pattern.quote(slug) + "([^a-z0-9-]|$).*")) {
                return i + 1;
            }
        }
        return 0;
    }
}
