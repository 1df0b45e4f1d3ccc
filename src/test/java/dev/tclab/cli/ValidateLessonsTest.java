package dev.tclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tclab.lesson.LessonFolders;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ValidateLessonsTest {

    @TempDir
    Path lessons;

    private static List<String> displays(String... args) {
        return ValidateLessons.folders(args).stream()
                .map(LessonFolders.Folder::display)
                .toList();
    }

    @Test
    void shouldNameLessonsInAFolderOfLessonsRelativeToIt() throws IOException {
        Files.createDirectories(lessons.resolve("my-lesson"));
        Files.createDirectories(lessons.resolve(".git"));
        assertEquals(List.of("my-lesson"), displays(lessons.toAbsolutePath().toString()));
    }

    @Test
    void shouldNameASingleLessonFolderByItsName() throws IOException {
        Path lesson = Files.createDirectories(lessons.resolve("my-lesson"));
        Files.writeString(lesson.resolve("lesson.md"), "---\ntitle: t\n---\n");
        assertEquals(List.of("my-lesson"), displays(lesson.toAbsolutePath() + "/"));
    }

    private record Run(int status, String out, String err) {}

    private static Run validate(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = ValidateLessons.run(
                List.of(args),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private Path lesson(String slug, String frontMatter) throws IOException {
        Path dir = Files.createDirectories(lessons.resolve(slug));
        Files.writeString(dir.resolve("lesson.md"), "---\ntitle: T\nsummary: S\n" + frontMatter + "---\nIntro.\n");
        return dir;
    }

    @Test
    void shouldPassTheBuiltInLessonsWithTheSummaryOnStdout() {
        Run run = validate("src/main/resources/lessons");
        assertEquals(0, run.status(), run.out());
        assertTrue(
                run.out().matches("(?s)\\d+ lesson\\(s\\) checked, 0 broken, 0 problem\\(s\\), 0 warning\\(s\\)\n"),
                run.out());
        assertEquals("", run.err());
    }

    @Test
    void shouldReportAPrerequisiteThatNamesNoLessonAtItsLine() throws IOException {
        lesson("second", "prerequisites:\n  - first\n  - tbf-basics\n  - no-such-lesson\n");
        lesson("first", "");
        Run run = validate(lessons.toString());
        assertEquals(1, run.status(), run.out());
        List<String> prerequisites =
                run.out().lines().filter(l -> l.contains("prerequisites")).toList();
        assertEquals(1, prerequisites.size(), run.out());
        assertTrue(
                prerequisites
                        .get(0)
                        .startsWith("second/lesson.md:7: prerequisites: no lesson 'no-such-lesson' "
                                + "exists; name a lesson by its folder name, e.g. "),
                run.out());
        assertTrue(run.out().endsWith("2 lesson(s) checked, 2 broken, 5 problem(s), 0 warning(s)\n"), run.out());
    }

    @Test
    void shouldReportACourseFileThatNamesNoLessonAtItsLine() throws IOException {
        lesson("first", "");
        Files.writeString(lessons.resolve("course.yml"), """
                tracks:
                  - id: mine
                    title: Mine
                    summary: My lessons.
                    lessons:
                      - first
                      - missing-one
                """);
        Run run = validate(lessons.toString());
        assertEquals(1, run.status(), run.out());
        assertTrue(
                run.out()
                        .contains("course.yml:7: tracks[0].lessons[1]: no lesson 'missing-one' exists; name a lesson"
                                + " by its folder name, e.g. "),
                run.out());

        Files.writeString(lessons.resolve("course.yml"), "tracks:\n  - { id: mine, title: Mine, summary: S }\n");
        Run schema = validate(lessons.toString());
        assertEquals(1, schema.status(), schema.out());
        assertTrue(schema.out().contains("course.yml:2: tracks[0]: "), schema.out());
    }

    @Test
    void shouldPrintAWarningWithItsLineAndCountItWithoutFailing() throws IOException {
        Path dir = lesson("ported", "");
        Files.writeString(dir.resolve("lab.yml"), """
                name: ported
                topology:
                  nodes:
                    client:
                      exec: [ip addr add 10.0.0.1/24 dev eth1]
                    server:
                      exec: [ip addr add 10.0.0.2/24 dev eth1, iperf3 -s -D]
                  links:
                    - endpoints: ["client:eth1", "server:eth1"]
                """);
        Files.createDirectories(dir.resolve("steps"));
        Files.writeString(dir.resolve("steps/01-up.md"), """
                ---
                title: Up
                ---
                ```check
                measure:
                  - { name: up, node: client, iperf3: { server: 10.0.0.2, port: 5201 } }
                expect:
                  - { value: up.mbps, above: 1 }
                ```
                """);
        Run run = validate(dir.toString());
        assertEquals(0, run.status(), "a warning alone never fails the validation: " + run.out());
        assertEquals(
                List.of(
                        "ported/steps/01-up.md:6: warning: port 5201 of check 'up-check-1', iperf3 'up' is the port"
                                + " node server's own `iperf3 -s -D` (lab.yml exec) listens on, so the check's one-off"
                                + " server cannot listen there and the measurement fails. Start that server on another"
                                + " port (`-p 5202`), or give the check another port",
                        "1 lesson(s) checked, 0 broken, 0 problem(s), 1 warning(s)"),
                run.out().lines().toList());
    }

    @Test
    void shouldRefuseAMissingFolderAndAnUnknownOption() {
        Run missing = validate(lessons.resolve("nope").toString());
        assertEquals(2, missing.status());
        assertTrue(missing.err().contains("no such folder"), missing.err());
        Run option = validate("--fast");
        assertEquals(2, option.status());
        assertEquals(ValidateLessons.USAGE + "\n", option.err());
    }

    @Test
    void shouldValidateAgainWhenAFileChangesInWatchMode() throws Exception {
        Path lesson = lesson("watched", "prerequisites: [missing-one]\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        Thread watcher = new Thread(() -> ValidateLessons.run(List.of("--watch", lessons.toString()), print, print));
        watcher.start();
        try {
            waitFor(out, "watching ");
            assertTrue(out.toString(StandardCharsets.UTF_8).contains("no lesson 'missing-one'"));
            Files.writeString(
                    lesson.resolve("lesson.md"), "---\ntitle: T\nsummary: S\nprerequisites: [tbf-basics]\n---\n");
            waitFor(out, "1 broken, 2 problem(s)");
            String again = out.toString(StandardCharsets.UTF_8);
            assertTrue(
                    again.substring(again.indexOf("watching ")).lines().noneMatch(l -> l.contains("prerequisites")),
                    again);
        } finally {
            watcher.interrupt();
            watcher.join(5000);
        }
    }

    private static void waitFor(ByteArrayOutputStream out, String text) throws InterruptedException {
        for (int i = 0; i < 100 && !out.toString(StandardCharsets.UTF_8).contains(text); i++) {
            Thread.sleep(100);
        }
        assertTrue(out.toString(StandardCharsets.UTF_8).contains(text), "no '" + text + "' in: " + out);
    }
}
