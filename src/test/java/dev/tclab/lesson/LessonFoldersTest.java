package dev.tclab.lesson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.tclab.grading.spec.SpecCheckValidator;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LessonFoldersTest {

    @TempDir
    Path tmp;

    @Test
    void shouldReadLessonsPackedInAJar() throws IOException {
        Path jar = tmp.resolve("app.jar");
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(jar))) {
            put(zip, "lessons/", "");
            put(zip, "lessons/packed/", "");
            put(zip, "lessons/packed/lab.yml", "name: packed\ntopology:\n  nodes:\n    client:\n");
            put(zip, "lessons/packed/lesson.md", "---\ntitle: Packed\nsummary: s\n---\nIntro\n");
            put(zip, "lessons/packed/steps/", "");
            put(zip, "lessons/packed/steps/01-one.md", "---\ntitle: One\n---\n```cmd client\nip a\n```\n");
        }
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
            List<Path> roots = LessonFolders.classpathRoots(loader);
            assertEquals(1, roots.size(), roots.toString());
            List<LessonFolders.Folder> folders = LessonFolders.builtIn(roots.get(0));
            assertEquals(
                    List.of("packed"),
                    folders.stream().map(LessonFolders.Folder::name).toList());
            Lesson lesson = new LessonLoader(new SpecCheckValidator())
                    .load(folders.get(0).path(), folders.get(0).display());
            assertEquals(List.of(), lesson.problems());
            assertEquals("Packed", lesson.meta().title());
            assertEquals(List.of("one"), lesson.steps().stream().map(Step::id).toList());
        }
    }

    @Test
    void shouldChangeTheFingerprintWhenAFileChanges() throws IOException {
        Path file = tmp.resolve("lesson.md");
        Files.writeString(file, "a");
        long before = LessonFolders.fingerprint(tmp);
        assertEquals(before, LessonFolders.fingerprint(tmp));
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(10)));
        assertNotEquals(before, LessonFolders.fingerprint(tmp));
    }

    @Test
    void shouldNotChangeTheFingerprintForEditorFiles() throws IOException {
        Files.writeString(tmp.resolve("lesson.md"), "a");
        long before = LessonFolders.fingerprint(tmp);
        Files.createDirectories(tmp.resolve("steps/.hidden"));
        Files.writeString(tmp.resolve("steps/.01-one.md.swp"), "swap");
        Files.writeString(tmp.resolve("steps/#01-one.md#"), "autosave");
        Files.writeString(tmp.resolve("steps/.hidden/01-one.md"), "inside a hidden folder");
        Files.writeString(tmp.resolve("lesson.md.bak"), "backup");
        assertEquals(before, LessonFolders.fingerprint(tmp));
    }

    private static void put(ZipOutputStream zip, String name, String text) throws IOException {
        zip.putNextEntry(new ZipEntry(name));
        OutputStream out = zip;
        out.write(text.getBytes(StandardCharsets.UTF_8));
        zip.closeEntry();
    }
}
