package dev.tclab.lesson;

import dev.tclab.yaml.FileProblem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The course files beside the lessons ({@code course.yml} in a folder of lessons), read again only when one changed
 * (never, inside the app's jar), so an author sees an edit on the next page load.
 */
public final class CourseFiles {

    /** The course file's name in a folder of lessons. */
    public static final String NAME = "course.yml";

    private record Cached(long stamp, Course.File file) {}

    private final Map<Path, Cached> cache = new ConcurrentHashMap<>();

    /**
     * The course file in a folder of lessons, when there is one.
     *
     * @param display how problems name the file: {@code lessons/course.yml} built in, {@code course.yml} an author's
     */
    Optional<Course.File> in(Path lessons, String display) {
        Path path = lessons.resolve(NAME);
        boolean inJar = path.getFileSystem() != FileSystems.getDefault();
        Cached cached = cache.get(path);
        if (cached != null && inJar) {
            return Optional.ofNullable(cached.file());
        }
        long stamp = stamp(path);
        if (cached == null || cached.stamp() != stamp) {
            cached = new Cached(stamp, read(path, display).orElse(null));
            cache.put(path, cached);
        }
        return Optional.ofNullable(cached.file());
    }

    /** The course file read now, when there is one; a file that cannot be read is a problem of the course. */
    public static Optional<Course.File> read(Path path, String display) {
        if (!Files.isRegularFile(path)) {
            return Optional.empty();
        }
        try {
            return Optional.of(CourseParser.parse(display, Files.readString(path, StandardCharsets.UTF_8)));
        } catch (IOException e) {
            return Optional.of(new Course.File(
                    List.of(),
                    List.of(),
                    List.of(new FileProblem(display, 0, "", "the course file cannot be read: " + e.getMessage()))));
        }
    }

    private static long stamp(Path path) {
        try {
            return Files.getLastModifiedTime(path).toMillis() * 31 + Files.size(path);
        } catch (IOException e) {
            return -1;
        }
    }
}
