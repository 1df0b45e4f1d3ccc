package dev.tclab.grading.selftest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.lesson.LessonCatalog;
import dev.tclab.testing.RunsAlone;
import dev.tclab.testing.UmlFigures;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Lesson CI: every built-in lesson passes its own self-test on the real engine (each check fails before its step's
 * solution and passes after), once per lesson here; `bin/tclab selftest --runs N` gives the N-run report. The lessons
 * run at once, each in its own lab, as a class's learners would ({@link LessonsAtOnce}).
 */
@QuarkusTest
@RunsAlone(RunsAlone.Group.MEASUREMENTS)
@UmlFigures
class BuiltInLessonsSelfTestIT {

    @Inject
    LessonSelfTest selfTest;

    @Inject
    LessonCatalog catalog;

    @TestFactory
    Stream<DynamicTest> everyBuiltInLessonPassesItsSelfTest() throws IOException {
        List<String> slugs;
        try (Stream<Path> dirs = Files.list(Path.of("src/main/resources/lessons"))) {
            slugs = dirs.filter(Files::isDirectory)
                    .map(p -> p.getFileName().toString())
                    .sorted()
                    .toList();
        }
        assertThat(slugs).as("built-in lessons").isNotEmpty();
        Map<String, LessonsAtOnce.Body> lessons = new LinkedHashMap<>();
        for (String slug : slugs) {
            lessons.put(slug, () -> {
                SelfTestReport report = selfTest.run(
                        catalog.lesson(slug).orElseThrow(), 1, line -> System.out.println(slug + ": " + line));
                System.out.print(report.text());
                assertThat(report.verdict()).as(report.text()).isEqualTo("ok");
            });
        }
        LessonsAtOnce atOnce = new LessonsAtOnce(lessons);
        return atOnce.tests().onClose(atOnce::close);
    }
}
