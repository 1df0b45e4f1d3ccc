package dev.tclab.cli;

import dev.tclab.grading.SpecCheckValidator;
import dev.tclab.lab.FileProblem;
import dev.tclab.lesson.Lesson;
import dev.tclab.lesson.LessonFolders;
import dev.tclab.lesson.LessonLoader;
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
        for (String arg : args) {
            if (!Files.isDirectory(Path.of(arg))) {
                System.err.println(arg + ": no such folder");
                System.exit(2);
            }
        }
        System.exit(report(folders(args), new LessonLoader(new SpecCheckValidator())));
    }

    /**
     * The lesson folders the arguments name. Problems name files relative to the folder given (e.g.
     * {@code qos/steps/02-shape.md}), never by absolute path.
     */
    static List<LessonFolders.Folder> folders(String... args) {
        List<LessonFolders.Folder> folders = new ArrayList<>();
        if (args.length == 0) {
            for (Path root : LessonFolders.classpathRoots(ValidateLessons.class.getClassLoader())) {
                folders.addAll(LessonFolders.builtIn(root));
            }
        }
        for (String arg : args) {
            Path dir = Path.of(arg);
            folders.addAll(Files.isRegularFile(dir.resolve("lesson.md"))
                    ? List.of(LessonFolders.single(dir)) : LessonFolders.external(dir));
        }
        return folders;
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
