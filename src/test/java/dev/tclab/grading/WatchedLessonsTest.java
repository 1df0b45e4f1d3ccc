package dev.tclab.grading;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.grading.spec.SpecCheckValidator;
import dev.tclab.lesson.Lesson;
import dev.tclab.lesson.LessonLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WatchedLessonsTest {

    private static final String LAB = """
            name: demo
            topology:
              nodes:
                client:
                server:
              links:
                - endpoints: ["client:eth1", "server:eth1"]
            """;

    @TempDir
    Path root;

    private final WatchedLessons watched = new WatchedLessons();

    @Test
    void shouldFindNoWatchedCheckInTheBuiltInLessons() {
        for (String slug :
                new String[] {"tbf-basics", "bufferbloat-upload", "bufferbloat-download", "htb-rate-accuracy", "buffers"
                }) {
            assertThat(watched.watchesAny(load(Path.of("src/main/resources/lessons", slug))))
                    .as(slug)
                    .isFalse();
        }
    }

    @Test
    void shouldFindAWatchedCheck() {
        assertThat(watched.watchesAny(load(Path.of("src/test/resources/semantics/commands"))))
                .isTrue();
    }

    @Test
    void shouldFindAWatchedCheckThatOnlyAKernelWithTheFeatureShows() throws IOException {
        Lesson lesson = lesson("""
                ```check if=qdisc:cake
                measure:
                  - { name: q, node: client, qdisc: { dev: eth1 } }
                expect:
                  - { value: q.root.kind, equals: cake }
                watch: true
                ```
                """);
        assertThat(watched.watchesAny(lesson)).isTrue();
    }

    @Test
    void shouldFindAWatchedCheckThatOnlyALaterParameterChoiceWatches() throws IOException {
        Lesson lesson = lesson("""
                ```check
                measure:
                  - { name: q, node: client, qdisc: { dev: eth1 } }
                expect:
                  - { value: q.root.kind, equals: tbf }
                watch: {{watching}}
                ```
                """);
        assertThat(watched.watchesAny(lesson)).isTrue();
    }

    @Test
    void shouldLookAgainAtALessonLoadedAgain() throws IOException {
        Lesson unwatched = lesson("""
                ```check
                measure:
                  - { name: q, node: client, qdisc: { dev: eth1 } }
                expect:
                  - { value: q.root.kind, equals: tbf }
                ```
                """);
        assertThat(watched.watchesAny(unwatched)).isFalse();
        Lesson edited = lesson("""
                ```check
                measure:
                  - { name: q, node: client, qdisc: { dev: eth1 } }
                expect:
                  - { value: q.root.kind, equals: tbf }
                watch: true
                ```
                """);
        assertThat(watched.watchesAny(edited)).isTrue();
    }

    /** A lesson "demo" whose one step holds {@code step}; a parameter {@code watching} is false, then true. */
    private Lesson lesson(String step) throws IOException {
        Path dir = root.resolve("demo");
        Files.createDirectories(dir.resolve("steps"));
        Files.writeString(dir.resolve("lab.yml"), LAB);
        Files.writeString(dir.resolve("lesson.md"), """
                ---
                title: Demo
                summary: A demo.
                level: beginner
                minutes: 10
                requires: [qdisc:tbf]
                uses: [qdisc:cake]
                parameters:
                  watching: { choices: ["false", "true"], description: whether the check is watched }
                ---
                Intro.
                """);
        Files.writeString(dir.resolve("steps/01-shape.md"), "---\ntitle: Shape\n---\n" + step);
        Lesson lesson = load(dir);
        assertThat(lesson.problems()).isEmpty();
        return lesson;
    }

    private static Lesson load(Path dir) {
        return new LessonLoader(new SpecCheckValidator()).load(dir, "lessons/" + dir.getFileName());
    }
}
