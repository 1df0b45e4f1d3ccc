package dev.tclab.lesson;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** Finds lesson folders: under {@code lessons/} on the classpath (folders or jars) and in an external folder. */
public final class LessonFolders {

    /**
     * A lesson folder and how problems name it.
     *
     * @param display how problems name the folder: {@code lessons/tbf-basics} for a built-in lesson, the folder's
     *                name ({@code tbf-basics}) for an external one, so learners never see server paths
     */
    public record Folder(Path path, String display) {

        /** The folder's name: the lesson's slug. */
        public String name() {
            return LessonFolders.name(path);
        }
    }

    private LessonFolders() {}

    /** Every {@code lessons/} root on the classpath: the app's resources (and, in tests, the test resources). */
    public static List<Path> classpathRoots(ClassLoader loader) {
        List<Path> roots = new ArrayList<>();
        try {
            for (URL url : Collections.list(loader.getResources("lessons"))) {
                roots.add(toPath(url.toURI()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("The classpath gave a malformed resource URL", e);
        }
        return roots;
    }

    private static Path toPath(URI uri) throws IOException {
        if ("jar".equals(uri.getScheme())) {
            String spec = uri.toString();
            URI jar = URI.create(spec.substring(0, spec.indexOf("!/")));
            try {
                FileSystems.newFileSystem(jar, Map.of());
            } catch (FileSystemAlreadyExistsException e) {
                // opened by an earlier call: reuse it
            }
            return FileSystems.getFileSystem(jar).getPath(spec.substring(spec.indexOf("!/") + 1));
        }
        return Path.of(uri);
    }

    /** The built-in lesson folders under a classpath root, named {@code lessons/<slug>} in problems. */
    public static List<Folder> builtIn(Path root) {
        return under(root, "lessons/");
    }

    /** The lesson folders in an author's folder of lessons, named relative to it ({@code <slug>}) in problems. */
    public static List<Folder> external(Path root) {
        return under(root, "");
    }

    /** One lesson folder on its own, named by its folder name in problems. */
    public static Folder single(Path dir) {
        Path absolute = dir.toAbsolutePath().normalize();
        return new Folder(absolute, name(absolute));
    }

    /** The lesson folders directly under a root, by name, skipping {@link IgnoredFiles}; a root that is not a folder has none. */
    private static List<Folder> under(Path root, String displayPrefix) {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> children = Files.list(root)) {
            return children.filter(Files::isDirectory)
                    .filter(p -> !IgnoredFiles.isIgnored(name(p)))
                    .sorted(Comparator.comparing(LessonFolders::name))
                    .map(p -> new Folder(p, displayPrefix + name(p)))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A cheap summary of every file in the folder (names, sizes, modification times); it changes when an author
     * edits, adds or removes a file, which is when the lesson is read again. {@link IgnoredFiles} do not count, so an
     * editor's swap file coming and going does not reload the lesson.
     */
    public static long fingerprint(Path folder) {
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(Files::isRegularFile)
                    .filter(file -> !IgnoredFiles.isIgnoredUnder(folder, file))
                    .sorted()
                    .mapToLong(LessonFolders::fileStamp)
                    .reduce(17, (h, stamp) -> 31 * h + stamp);
        } catch (IOException | UncheckedIOException e) {
            // A folder being edited can vanish mid-walk: a changing fingerprint makes the next load re-read it.
            return System.nanoTime();
        }
    }

    private static long fileStamp(Path file) {
        try {
            return (31L * file.toString().hashCode()
                                    + Files.getLastModifiedTime(file).toMillis())
                            * 31
                    + Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String name(Path p) {
        String name = p.getFileName().toString();
        return name.endsWith("/") ? name.substring(0, name.length() - 1) : name;
    }
}
