package dev.tclab.lesson;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.grading.spec.SpecCheckValidator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every built-in lesson loads without a problem and renders cleanly for every value of every parameter, on a
 * kernel with every feature and on one with none (the two sides of each guard), so no learner gets a broken
 * check. Whether the checks grade right is the self-test's job (BuiltInLessonsSelfTestIT).
 */
class BuiltInLessonsTest {

    private static final Path LESSONS = Path.of("src/main/resources/lessons");

    static Stream<String> lessons() throws IOException {
        return Files.list(LESSONS)
                .filter(Files::isDirectory)
                .map(p -> p.getFileName().toString())
                .sorted()
                .toList()
                .stream();
    }

    @ParameterizedTest
    @MethodSource("lessons")
    void shouldLoadAndRenderForEveryParameterValueAndKernel(String slug) {
        Lesson lesson = new LessonLoader(new SpecCheckValidator()).load(LESSONS.resolve(slug), "lessons/" + slug);
        assertThat(lesson.problems()).as(slug).isEmpty();
        assertThat(lesson.steps()).isNotEmpty();
        for (Map<String, String> values : everyValue(lesson.meta().parameters())) {
            for (boolean kernelHasAll : List.of(true, false)) {
                LessonView view = LessonRenderer.render(
                        lesson, values, feature -> kernelHasAll, Map.of(), new SpecCheckValidator());
                assertThat(view.problems())
                        .as(slug + " with " + values + ", every feature " + kernelHasAll)
                        .isEmpty();
                assertThat(view.steps())
                        .flatExtracting(LessonView.StepView::checks)
                        .as(slug + " has checks")
                        .isNotEmpty();
            }
        }
    }

    @ParameterizedTest
    @MethodSource("lessons")
    void shouldRenderEveryMarkdownTableAsATable(String slug) throws IOException {
        Lesson lesson = new LessonLoader(new SpecCheckValidator()).load(LESSONS.resolve(slug), "lessons/" + slug);
        long sourceTables;
        try (Stream<Path> files = Files.walk(LESSONS.resolve(slug))) {
            sourceTables = files.filter(f -> f.toString().endsWith(".md"))
                    .mapToLong(BuiltInLessonsTest::tableRules)
                    .sum();
        }
        LessonView view = LessonRenderer.render(
                lesson,
                Parameters.firstChoices(lesson.meta().parameters()),
                feature -> true,
                Map.of(),
                new SpecCheckValidator());
        String html = view.introHtml()
                + view.steps().stream().map(LessonView.StepView::html).reduce("", String::concat);
        assertThat(html.split("<table>", -1).length - 1L)
                .as(slug + ": every table of the markdown renders as <table>")
                .isEqualTo(sourceTables);
        assertThat(html).as(slug + ": no table shows as a paragraph of pipes").doesNotContain("| ---");
    }

    /** The number of table header rules ({@code | --- | --- |}) in a markdown file. */
    private static long tableRules(Path file) {
        try {
            return Files.readAllLines(file).stream()
                    .filter(l -> l.strip().matches("\\|( *:?-{3,}:? *\\|)+"))
                    .count();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** For each parameter, each of its choices (the others at their first choice). */
    private static List<Map<String, String>> everyValue(Map<String, Parameter> parameters) {
        Map<String, String> first = Parameters.firstChoices(parameters);
        List<Map<String, String>> values = new java.util.ArrayList<>(List.of(first));
        for (Parameter parameter : parameters.values()) {
            for (String choice : parameter.choices()) {
                Map<String, String> one = new HashMap<>(first);
                one.put(parameter.name(), choice);
                values.add(one);
            }
        }
        return values;
    }
}
