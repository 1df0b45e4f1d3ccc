package dev.tclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tclab.lesson.LessonFolders;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ValidateLessonsTest {

    @TempDir
    Path lessons;

    private static List<String> displays(String... args) {
        return ValidateLessons.folders(args).stream().map(LessonFolders.Folder::display).toList();
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
}
