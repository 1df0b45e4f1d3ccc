package dev.tclab.lesson;

import dev.tclab.lab.FileProblem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Validates lessons without starting the server: {@code bin/validate-lessons [DIR...]}. A DIR is a lesson folder
 * (it has a lesson.md) or a folder of lesson folders; without DIR, the built-in lessons are checked. Prints
 * {@code file:line: problem} lines and exits with 1 when any lesson is broken, 2 when a DIR does not exist.
 */
public final class ValidateLessons {

    private ValidateLessons() {
    }

    public static void main(String[] args) {
        LessonLoader loader = new LessonLoader(new YamlCheckBlockValidator());
        List<LessonFolders.Folder> folders = new ArrayList<>();
        if (args.length == 0) {
            for (Path root : LessonFolders.classpathRoots(ValidateLessons.class.getClassLoader())) {
                folders.addAll(LessonFolders.under(root, "lessons"));
            }
        }
        for (String arg : args) {
            Path dir = Path.of(arg);
            if (!Files.isDirectory(dir)) {
                System.err.println(arg + ": no such folder");
                System.exit(2);
            }
            folders.addAll(Files.isRegularFile(dir.resolve("lesson.md"))
                    ? List.of(new LessonFolders.Folder(dir, arg.replaceAll("/+$", ""))) : LessonFolders.under(dir, arg.replaceAll("/+$", "")));
        }
        System.exit(report(folders, loader));
    }

    private static int report(List<LessonFolders.Folder> folders, LessonLoader loader) {
        int broken = 0;
        for (LessonFolders.Folder folder : folders) {
            Lesson lesson = loader.load(folder.path(), folder.display());
            lesson.problems().stream().map(FileProblem::toString).forEach(System.out::println);
            if (lesson.broken()) {
                broken++;
            }
        }
        System.err.println(folders.size() + " lesson(s) checked, " + broken + " broken");
        return broken == 0 ? 0 : 1;
    }
}
