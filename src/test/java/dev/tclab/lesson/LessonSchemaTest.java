package dev.tclab.lesson;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.yaml.FileProblem;
import dev.tclab.yaml.PublishedSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The published docs/schema/lesson.schema.json (lesson.md front matter) and step.schema.json (step front matter)
 * accept every front matter LessonLoader accepts, report every structural problem of a bad one at once with its
 * line, and allow exactly the keys LessonLoader reads.
 */
class LessonSchemaTest {

    private static final PublishedSchema LESSON = new PublishedSchema("lesson.schema.json");
    private static final PublishedSchema STEP = new PublishedSchema("step.schema.json");

    /** The YAML between the opening '---' and closing '---' lines, or null when the file has none. */
    private record FrontMatter(String yaml, int lastLine) {

        static FrontMatter of(String text) {
            String[] lines = text.replace("\r\n", "\n").split("\n", -1);
            if (lines.length == 0 || !lines[0].strip().equals("---")) {
                return null;
            }
            for (int close = 1; close < lines.length; close++) {
                if (lines[close].strip().equals("---")) {
                    return new FrontMatter(String.join("\n", List.of(lines).subList(1, close)), close + 1);
                }
            }
            return null;
        }
    }

    @Test
    void shouldAcceptEveryFrontMatterTheLoaderAccepts() throws IOException {
        int lessons = 0;
        int steps = 0;
        for (String root : List.of("src/main/resources/lessons", "src/test/resources/lessons")) {
            List<Path> folders;
            try (Stream<Path> list = Files.list(Path.of(root))) {
                folders = list.filter(Files::isDirectory).sorted().toList();
            }
            for (Path folder : folders) {
                String display = "lessons/" + folder.getFileName();
                List<FileProblem> problems = new LessonLoader((file, line, yaml) -> List.of())
                        .load(folder, display)
                        .problems();
                if (accepted(folder.resolve("lesson.md"), display + "/lesson.md", problems, LESSON)) {
                    lessons++;
                }
                if (!Files.isDirectory(folder.resolve("steps"))) {
                    continue;
                }
                List<Path> stepFiles;
                try (Stream<Path> list = Files.list(folder.resolve("steps"))) {
                    stepFiles = list.filter(p -> p.toString().endsWith(".md"))
                            .sorted()
                            .toList();
                }
                for (Path step : stepFiles) {
                    if (accepted(step, display + "/steps/" + step.getFileName(), problems, STEP)) {
                        steps++;
                    }
                }
            }
        }
        assertThat(lessons).as("lesson.md front matters the loader accepts").isGreaterThanOrEqualTo(8);
        assertThat(steps).as("step front matters the loader accepts").isGreaterThanOrEqualTo(20);
    }

    /** Asserts the schema accepts the file's front matter when the loader reported no problem inside it. */
    private static boolean accepted(Path path, String display, List<FileProblem> problems, PublishedSchema schema)
            throws IOException {
        if (!Files.isRegularFile(path)) {
            return false;
        }
        FrontMatter front = FrontMatter.of(Files.readString(path));
        if (front == null
                || problems.stream()
                        .anyMatch(p -> p.file().equals(display) && p.line() >= 1 && p.line() <= front.lastLine())) {
            return false;
        }
        assertThat(schema.problems(front.yaml()))
                .as(display + ":\n" + front.yaml())
                .isEmpty();
        return true;
    }

    @Test
    void shouldReportEveryProblemOfABadLessonAtOnceWithItsLine() {
        List<String> problems = LESSON.problems("""
                title: Shaping
                level: expert
                minutes: forty
                requires: [tbf]
                prerequisites: [Linux Basics]
                parameters:
                  rate: { choices: [] }
                  split: { names: [a, b], choices: [8, 12] }
                  9lives: { choices: [1], colour: red }
                author: me
                """);
        assertThat(problems).anyMatch(p -> p.contains("summary"));
        assertThat(problems).anyMatch(p -> p.startsWith("2: ") && p.contains("level"));
        assertThat(problems).anyMatch(p -> p.startsWith("3: ") && p.contains("minutes"));
        assertThat(problems).anyMatch(p -> p.startsWith("4: ") && p.contains("requires/0"));
        assertThat(problems).anyMatch(p -> p.startsWith("5: ") && p.contains("prerequisites/0"));
        assertThat(problems).anyMatch(p -> p.startsWith("7: ") && p.contains("rate"));
        assertThat(problems).anyMatch(p -> p.startsWith("8: ") && p.contains("split/choices/0"));
        assertThat(problems).anyMatch(p -> p.contains("9lives"));
        assertThat(problems).anyMatch(p -> p.startsWith("9: ") && p.contains("colour"));
        assertThat(problems).anyMatch(p -> p.contains("author"));
    }

    @Test
    void shouldReportEveryProblemOfABadStepAtOnceWithItsLine() {
        List<String> problems = STEP.problems("""
                id: Step One
                summary: no
                """);
        assertThat(problems).anyMatch(p -> p.contains("title"));
        assertThat(problems).anyMatch(p -> p.startsWith("1: ") && p.contains("id"));
        assertThat(problems).anyMatch(p -> p.contains("summary"));
    }

    @Test
    void shouldBindExactlyTheKeysTheSchemaAllows() {
        assertThat(PublishedSchema.boundKeys(LessonLoader.LessonFile.class)).isEqualTo(LESSON.keys(""));
        assertThat(PublishedSchema.boundKeys(LessonLoader.ParameterFile.class))
                .isEqualTo(LESSON.keys("/$defs/parameter"));
        assertThat(PublishedSchema.boundKeys(LessonLoader.StepFile.class)).isEqualTo(STEP.keys(""));
    }

    @Test
    void shouldDescribeEveryPropertyForEditors() {
        assertThat(LESSON.undescribedProperties()).isEmpty();
        assertThat(STEP.undescribedProperties()).isEmpty();
    }
}
