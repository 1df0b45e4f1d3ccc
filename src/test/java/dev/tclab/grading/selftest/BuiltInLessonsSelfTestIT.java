package dev.tclab.grading.selftest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.lesson.Lesson;
import dev.tclab.lesson.LessonCatalog;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.LabEngine;
import dev.tclab.testing.RunsAlone;
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
 * Lesson CI: every built-in lesson whose lab runs on the host's kernel here passes its own self-test on the real
 * engine (each check fails before its step's solution and passes after), once per lesson; `bin/tclab selftest --runs
 * N` gives the N-run report. The lessons run at once, each in its own lab, as a class's learners would
 * ({@link LessonsAtOnce}). A lesson whose lab gets a kernel of its own here (User-Mode Linux, for qdiscs this host
 * lacks) is UmlLessonsSelfTestIT's, one at a time and alone on the machine: beside these lessons' line-rate
 * baselines and the other fork, its CAKE shaper's figures came within a few percent of their floor (15.1 Mbit/s for
 * 15).
 */
@QuarkusTest
@RunsAlone(RunsAlone.Group.MEASUREMENTS)
class BuiltInLessonsSelfTestIT {

    @Inject
    LessonSelfTest selfTest;

    @Inject
    LessonCatalog catalog;

    @Inject
    LabEngine engine;

    @TestFactory
    Stream<DynamicTest> everyBuiltInLessonPassesItsSelfTest() throws IOException {
        List<String> all;
        try (Stream<Path> dirs = Files.list(Path.of("src/main/resources/lessons"))) {
            all = dirs.filter(Files::isDirectory)
                    .map(p -> p.getFileName().toString())
                    .sorted()
                    .toList();
        }
        List<String> slugs = all.stream().filter(this::runsOnTheHostsKernel).toList();
        assertThat(slugs).as("built-in lessons on the host's kernel").isNotEmpty();
        assertThat(all.stream().filter(slug -> !slugs.contains(slug)))
                .as(
                        "the lessons left to UmlLessonsSelfTestIT.CAKE_LESSONS and OWN_KERNEL_LESSONS: a new one goes there")
                .containsExactlyInAnyOrderElementsOf(Stream.concat(
                                UmlLessonsSelfTestIT.CAKE_LESSONS.stream(),
                                UmlLessonsSelfTestIT.OWN_KERNEL_LESSONS.stream())
                        .toList());
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

    private boolean runsOnTheHostsKernel(String slug) {
        Lesson lesson = catalog.lesson(slug).orElseThrow();
        try {
            return engine.ownKernel(lesson.topology(), slug).isEmpty();
        } catch (EngineUnavailableException e) {
            throw new IllegalStateException("the engine does not answer: " + e.getMessage(), e);
        }
    }
}
