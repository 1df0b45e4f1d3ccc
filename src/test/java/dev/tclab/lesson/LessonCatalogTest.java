package dev.tclab.lesson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tclab.grading.spec.SpecCheckValidator;
import dev.tclab.runtime.topology.TopologyException;
import dev.tclab.yaml.FileProblem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LessonCatalogTest {

    @TempDir
    Path external;

    private void writeLesson(String slug, String title) throws IOException {
        Path dir = external.resolve(slug);
        Files.createDirectories(dir.resolve("steps"));
        Files.writeString(dir.resolve("lab.yml"), "name: " + slug + "\ntopology:\n  nodes:\n    client:\n");
        Files.writeString(dir.resolve("lesson.md"), "---\ntitle: " + title + "\nsummary: s\n---\nIntro\n");
        Files.writeString(dir.resolve("steps/01-one.md"), "---\ntitle: One\n---\nText\n");
    }

    private static void touch(Path file) throws IOException {
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));
    }

    @Test
    void shouldOfferBuiltInAndExternalLessons() throws IOException {
        writeLesson("extra", "Extra");
        LessonCatalog catalog = new LessonCatalog(new SpecCheckValidator(), Optional.of(external));
        assertTrue(catalog.lesson("tbf-basics").isPresent());
        assertEquals("Extra", catalog.lesson("extra").orElseThrow().meta().title());
        assertTrue(catalog.lessons().stream().anyMatch(l -> l.slug().equals("extra")));
    }

    @Test
    void shouldSeeAnEditOnTheNextLoadWithoutRestart() throws IOException {
        writeLesson("live", "Before");
        LessonCatalog catalog = new LessonCatalog(new SpecCheckValidator(), Optional.of(external));
        assertEquals("Before", catalog.lesson("live").orElseThrow().meta().title());
        Path md = external.resolve("live/lesson.md");
        Files.writeString(md, "---\ntitle: After\nsummary: s\n---\nIntro\n");
        touch(md);
        assertEquals("After", catalog.lesson("live").orElseThrow().meta().title());
    }

    @Test
    void shouldKeepOtherLessonsWorkingWhenOneBreaks() throws IOException {
        writeLesson("good", "Good");
        writeLesson("bad", "Bad");
        LessonCatalog catalog = new LessonCatalog(new SpecCheckValidator(), Optional.of(external));
        Path md = external.resolve("bad/lesson.md");
        Files.writeString(md, "---\ntitle: [broken\n---\n");
        touch(md);
        assertTrue(catalog.lesson("bad").orElseThrow().broken());
        assertFalse(catalog.lesson("good").orElseThrow().broken());
        assertEquals(
                2,
                catalog.lessons().stream()
                        .filter(l -> l.slug().equals("good") || l.slug().equals("bad"))
                        .count());
    }

    @Test
    void shouldNameProblemsRelativeToTheLessonsFolderNotByServerPath() throws IOException {
        writeLesson("my-lesson", "Mine");
        Files.writeString(external.resolve("my-lesson/steps/02-shape.md"), "no front matter\n");
        LessonCatalog catalog = new LessonCatalog(new SpecCheckValidator(), Optional.of(external));
        assertEquals(
                List.of("my-lesson/steps/02-shape.md:1: missing front matter: start the file with a '---' line, "
                        + "the YAML (title: ...), and another '---' line"),
                catalog.lesson("my-lesson").orElseThrow().problems().stream()
                        .map(FileProblem::toString)
                        .toList());
    }

    @Test
    void shouldNotOfferHiddenOrBackupFoldersAsLessons() throws IOException {
        writeLesson("real", "Real");
        Files.createDirectories(external.resolve(".git"));
        Files.createDirectories(external.resolve("real.orig"));
        LessonCatalog catalog = new LessonCatalog(new SpecCheckValidator(), Optional.of(external));
        assertEquals(
                List.of(),
                catalog.lessons().stream()
                        .map(Lesson::slug)
                        .filter(slug -> slug.equals(".git") || slug.equals("real.orig"))
                        .toList());
    }

    @Test
    void shouldKeepTheLessonWorkingWhileAStepIsOpenInAnEditor() throws IOException {
        writeLesson("edited", "Edited");
        LessonCatalog catalog = new LessonCatalog(new SpecCheckValidator(), Optional.of(external));
        Lesson before = catalog.lesson("edited").orElseThrow();
        Files.writeString(external.resolve("edited/steps/.01-one.md.swp"), "vim swap");
        Files.writeString(external.resolve("edited/steps/01-one.md~"), "backup");
        Lesson during = catalog.lesson("edited").orElseThrow();
        assertFalse(during.broken(), during.problems().toString());
        assertSame(before, during, "an editor's files do not make the catalog read the lesson again");
    }

    @Test
    void shouldServeTheLessonsLabAsTopologyAndRefuseABrokenOne() throws Exception {
        writeLesson("lab-ok", "Lab");
        writeLesson("lab-bad", "Lab");
        Files.writeString(external.resolve("lab-bad/lab.yml"), "name: x\n");
        LessonCatalog catalog = new LessonCatalog(new SpecCheckValidator(), Optional.of(external));
        assertEquals("lab-ok", catalog.topologyFor("lab-ok").orElseThrow().name());
        assertTrue(catalog.topologyFor("no-such").isEmpty());
        assertTrue(catalog.topologyFor("../etc").isEmpty());
        TopologyException e = assertThrows(TopologyException.class, () -> catalog.topologyFor("lab-bad"));
        assertTrue(e.problems().get(0).toString().contains("lab-bad/lab.yml"), e.getMessage());
    }
}
