package dev.tclab.lesson;

import java.nio.file.Path;
import java.util.List;

/**
 * Files an author's tools leave next to lesson files, which the loader and the change watcher skip: hidden files
 * (vim's {@code .02-shape.md.swp}, {@code .git}, {@code .DS_Store}) and editor backups. Without this, opening a step
 * in an editor would break the lesson for everyone using it.
 */
public final class IgnoredFiles {

    private static final List<String> BACKUP_SUFFIXES = List.of("~", ".swp", ".swo", ".bak", ".orig");

    private IgnoredFiles() {}

    /** True for a hidden file, {@code name~}, {@code #name#}, and {@code .swp}, {@code .swo}, {@code .bak}, {@code .orig}. */
    public static boolean isIgnored(String name) {
        return name.startsWith(".")
                || name.length() > 1 && name.startsWith("#") && name.endsWith("#")
                || BACKUP_SUFFIXES.stream().anyMatch(name::endsWith);
    }

    /** True when the path, or any folder between {@code base} and it, is ignored. */
    public static boolean isIgnoredUnder(Path base, Path path) {
        for (Path part : base.relativize(path)) {
            if (isIgnored(part.toString())) {
                return true;
            }
        }
        return false;
    }
}
