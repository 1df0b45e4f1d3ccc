package dev.tclab.cli;

import dev.tclab.grading.spec.SpecCheckValidator;
import dev.tclab.lesson.Course;
import dev.tclab.lesson.CourseFiles;
import dev.tclab.lesson.Lesson;
import dev.tclab.lesson.LessonFolders;
import dev.tclab.lesson.LessonLoader;
import dev.tclab.lesson.Prerequisites;
import dev.tclab.yaml.FileProblem;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Validates lessons without starting the server: {@code tclab validate [--watch] [DIR...]} (and
 * {@code bin/validate-lessons}). A DIR is a lesson folder (it has a lesson.md) or a folder of lesson folders;
 * without DIR, the built-in lessons are checked. Prints {@code file:line: problem} lines, then
 * {@code file:line: warning: ...} lines (see {@code LessonWarnings}), then the problems of the course files (the
 * built-in course.yml and a DIR's own, see {@code Course}), and a summary on stdout; exits with 1 when any lesson is
 * broken or a course file has a problem (warnings alone never do), 2 on a usage mistake (e.g. a DIR that does not exist). With
 * {@code --watch} it validates again whenever a file under a DIR changes, until interrupted.
 */
public final class ValidateLessons {

    static final String USAGE = "usage: tclab validate [--watch] [DIR...]";
    /** How often --watch looks for changes: quick enough to feel immediate after a save, cheap on a lesson folder. */
    private static final long WATCH_INTERVAL_MS = 300;

    private ValidateLessons() {}

    /** @return the exit code: 0 when every lesson is valid, 1 when one is broken, 2 on a usage mistake */
    public static int run(List<String> args, PrintStream out, PrintStream err) {
        boolean watch = false;
        List<String> dirs = new ArrayList<>();
        for (String arg : args) {
            if (arg.equals("--watch")) {
                watch = true;
            } else if (arg.startsWith("-")) {
                err.println(USAGE);
                return 2;
            } else if (!Files.isDirectory(Path.of(arg))) {
                err.println(arg + ": no such folder");
                return 2;
            } else {
                dirs.add(arg);
            }
        }
        LessonLoader loader = new LessonLoader(new SpecCheckValidator());
        // Taken before validating, so a save during the first run is validated again.
        long seen = fingerprint(dirs);
        int status = report(dirs, loader, out);
        if (!watch) {
            return status;
        }
        out.println("watching " + (dirs.isEmpty() ? "the built-in lessons" : String.join(", ", dirs))
                + " for changes (Ctrl-C to stop)");
        while (!Thread.currentThread().isInterrupted()) {
            try {
                Thread.sleep(WATCH_INTERVAL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            long now = fingerprint(dirs);
            if (now != seen) {
                seen = now;
                out.println();
                status = report(dirs, loader, out);
            }
        }
        return status;
    }

    /**
     * The lesson folders the arguments name. Problems name files relative to the folder given (e.g.
     * {@code qos/steps/02-shape.md}), never by absolute path.
     */
    static List<LessonFolders.Folder> folders(String... args) {
        List<LessonFolders.Folder> folders = new ArrayList<>();
        if (args.length == 0) {
            folders.addAll(builtIn());
        }
        for (String arg : args) {
            Path dir = Path.of(arg);
            folders.addAll(
                    Files.isRegularFile(dir.resolve("lesson.md"))
                            ? List.of(LessonFolders.single(dir))
                            : LessonFolders.external(dir));
        }
        return folders;
    }

    private static List<LessonFolders.Folder> builtIn() {
        List<LessonFolders.Folder> folders = new ArrayList<>();
        for (Path root : LessonFolders.classpathRoots(ValidateLessons.class.getClassLoader())) {
            folders.addAll(LessonFolders.builtIn(root));
        }
        return folders;
    }

    /** Validates every lesson the arguments name; prints their problems and a summary line. */
    static int report(List<String> dirs, LessonLoader loader, PrintStream out) {
        List<LessonFolders.Folder> folders = folders(dirs.toArray(String[]::new));
        List<Lesson> lessons =
                folders.stream().map(f -> loader.load(f.path(), f.display())).toList();
        // A prerequisite may name a built-in lesson or any lesson validated alongside (the server offers both).
        Set<String> known = new LinkedHashSet<>();
        builtIn().forEach(f -> known.add(f.name()));
        lessons.forEach(l -> known.add(l.slug()));
        int broken = 0;
        int problems = 0;
        int warnings = 0;
        for (int i = 0; i < lessons.size(); i++) {
            List<FileProblem> found = new ArrayList<>(lessons.get(i).problems());
            found.addAll(Prerequisites.unknown(lessons.get(i), folders.get(i).path(), known));
            found.stream().map(FileProblem::toString).forEach(out::println);
            lessons.get(i).warnings().stream().map(FileProblem::asWarning).forEach(out::println);
            problems += found.size();
            warnings += lessons.get(i).warnings().size();
            broken += found.isEmpty() ? 0 : 1;
        }
        List<FileProblem> course = course(dirs, known).problems();
        course.stream().map(FileProblem::toString).forEach(out::println);
        problems += course.size();
        out.println(lessons.size() + " lesson(s) checked, " + broken + " broken, " + problems + " problem(s), "
                + warnings + " warning(s)");
        return broken == 0 && course.isEmpty() ? 0 : 1;
    }

    /**
     * The course of the built-in course.yml and of each DIR of lessons that has one, as the server would read them
     * with that DIR as its {@code tclab.lessons.external-dir}; a DIR's course file is named {@code course.yml}.
     */
    private static Course course(List<String> dirs, Set<String> known) {
        List<Course.File> files = new ArrayList<>();
        for (Path root : LessonFolders.classpathRoots(ValidateLessons.class.getClassLoader())) {
            CourseFiles.read(root.resolve(CourseFiles.NAME), "lessons/" + CourseFiles.NAME)
                    .ifPresent(files::add);
        }
        for (String dir : dirs) {
            CourseFiles.read(Path.of(dir).resolve(CourseFiles.NAME), CourseFiles.NAME)
                    .ifPresent(files::add);
        }
        return Course.of(files, known);
    }

    /** Changes whenever a file under a DIR is edited, added or removed (a new lesson folder included). */
    private static long fingerprint(List<String> dirs) {
        long hash = 17;
        for (String dir : dirs) {
            hash = 31 * hash + LessonFolders.fingerprint(Path.of(dir));
        }
        return hash;
    }
}
