package dev.tclab.lesson;

import dev.tclab.config.TclabConfig;
import dev.tclab.runtime.topology.Topology;
import dev.tclab.runtime.topology.TopologyException;
import dev.tclab.runtime.topology.TopologySource;
import dev.tclab.yaml.FileProblem;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Every lesson the app knows: the built-in ones on the classpath and those in {@code tclab.lessons.external-dir}
 * (an external lesson replaces a built-in one with the same slug). A lesson folder is read again when any of
 * its files changed since the last read, so an author sees edits on the next page load. Also the
 * {@link TopologySource} of labs: a lesson's lab is its lab.yml.
 */
@ApplicationScoped
public class LessonCatalog implements TopologySource {

    private static final Logger LOG = Logger.getLogger(LessonCatalog.class);
    private static final Comparator<Lesson> ORDER = Comparator.comparingInt(
                    (Lesson l) -> LessonMeta.LEVELS.indexOf(l.meta().level()))
            .thenComparing(l -> l.meta().title())
            .thenComparing(Lesson::slug);

    private record Cached(long fingerprint, Lesson lesson) {}

    private final LessonLoader loader;
    private final Optional<Path> externalDir;
    private final Map<Path, Cached> cache = new ConcurrentHashMap<>();
    private volatile List<Path> classpathRoots;
    /** The lesson folders of each classpath root in the app's jar, listed once (see {@link #inJar}). */
    private final Map<Path, List<LessonFolders.Folder>> jarFolders = new ConcurrentHashMap<>();

    private final CourseFiles courseFiles = new CourseFiles();

    @Inject
    public LessonCatalog(CheckBlockValidator checkValidator, TclabConfig config) {
        this(checkValidator, config.lessons().externalDir().map(Path::of));
    }

    LessonCatalog(CheckBlockValidator checkValidator, Optional<Path> externalDir) {
        this.loader = new LessonLoader(checkValidator);
        this.externalDir = externalDir;
    }

    void validateAtStart(@Observes StartupEvent event) {
        externalDir
                .filter(dir -> !Files.isDirectory(dir))
                .ifPresent(dir -> LOG.warnf(
                        "tclab.lessons.external-dir %s is not a folder; only built-in lessons are offered", dir));
        List<Lesson> lessons = lessons();
        for (Lesson lesson : lessons) {
            if (lesson.broken()) {
                LOG.warnf("Lesson '%s' is broken and will be listed as such:", lesson.slug());
                lesson.problems().forEach(p -> LOG.warnf("  %s", p));
            }
            lesson.warnings().forEach(w -> LOG.warnf("Lesson '%s': %s", lesson.slug(), w.asWarning()));
        }
        course().problems().forEach(p -> LOG.warnf("Course: %s", p));
        LOG.infof(
                "%d lessons, %d broken",
                lessons.size(), lessons.stream().filter(Lesson::broken).count());
    }

    /** Every lesson, working and broken, beginner ones first, then by title. */
    public List<Lesson> lessons() {
        Map<String, Lesson> bySlug = new LinkedHashMap<>();
        for (LessonFolders.Folder folder : folders()) {
            Lesson lesson = current(folder);
            bySlug.put(lesson.slug(), lesson);
        }
        List<Lesson> lessons = new ArrayList<>(bySlug.values());
        lessons.sort(ORDER);
        return lessons;
    }

    /**
     * The course over every lesson there is: the tracks of the built-in course.yml, then those of the one in
     * {@code tclab.lessons.external-dir} (see {@link Course}).
     */
    public Course course() {
        List<Course.File> files = new ArrayList<>();
        for (Path root : classpathRoots()) {
            courseFiles.in(root, "lessons/" + CourseFiles.NAME).ifPresent(files::add);
        }
        externalDir.flatMap(dir -> courseFiles.in(dir, CourseFiles.NAME)).ifPresent(files::add);
        return Course.of(files, lessons().stream().map(Lesson::slug).toList());
    }

    public Optional<Lesson> lesson(String slug) {
        if (!LessonLoader.SLUG.matcher(slug).matches()) {
            return Optional.empty();
        }
        Lesson found = null;
        for (LessonFolders.Folder folder : folders()) {
            if (folder.name().equals(slug)) {
                found = current(folder);
            }
        }
        return Optional.ofNullable(found);
    }

    @Override
    public Set<String> kernelFeaturesFor(String slug) {
        return lesson(slug).map(l -> Set.copyOf(l.meta().requires())).orElse(Set.of());
    }

    @Override
    public Set<String> kernelFeaturesUsedBy(String slug) {
        return lesson(slug)
                .map(l -> {
                    Set<String> features = new LinkedHashSet<>(l.meta().requires());
                    features.addAll(l.meta().uses());
                    return Set.copyOf(features);
                })
                .orElse(Set.of());
    }

    /** The lesson's lab. A lesson whose lab.yml is broken throws its problems; other problems do not stop the lab. */
    @Override
    public Optional<Topology> topologyFor(String slug) throws TopologyException {
        Optional<Lesson> lesson = lesson(slug);
        if (lesson.isEmpty()) {
            return Optional.empty();
        }
        if (lesson.get().topology() == null) {
            List<FileProblem> labProblems = lesson.get().problems().stream()
                    .filter(p -> p.file().endsWith("/lab.yml"))
                    .toList();
            throw new TopologyException(labProblems.isEmpty() ? lesson.get().problems() : labProblems);
        }
        return Optional.of(lesson.get().topology());
    }

    @Override
    public String titleOf(String slug) {
        return lesson(slug)
                .map(l -> l.meta().title())
                .filter(t -> t != null && !t.isBlank())
                .orElse(slug);
    }

    @Override
    public Map<String, String> parametersFor(String slug, String learner) {
        return lesson(slug)
                .map(l -> Parameters.forLearner(learner, slug, l.meta().parameters()))
                .orElse(Map.of());
    }

    /**
     * The built-in lessons' roots, looked up once: the classpath does not change while the app runs, and each look-up
     * opened the app's jar as a file system under the JDK's one lock for all of them, which made a class's Starts
     * (two look-ups each) wait for one another (docs/BENCHMARKS.md, "A class at once").
     */
    private List<Path> classpathRoots() {
        List<Path> roots = classpathRoots;
        if (roots == null) {
            roots = List.copyOf(
                    LessonFolders.classpathRoots(Thread.currentThread().getContextClassLoader()));
            classpathRoots = roots;
        }
        return roots;
    }

    private List<LessonFolders.Folder> folders() {
        List<LessonFolders.Folder> folders = new ArrayList<>();
        for (Path root : classpathRoots()) {
            folders.addAll(
                    inJar(root)
                            ? jarFolders.computeIfAbsent(root, LessonFolders::builtIn)
                            : LessonFolders.builtIn(root));
        }
        externalDir.ifPresent(dir -> folders.addAll(LessonFolders.external(dir)));
        return folders;
    }

    /**
     * Whether the path is inside the app's jar, whose lessons never change while the app runs: they are listed and
     * read once, not walked again on every look-up (a class's Starts waited on the jar's lock for it). Lessons in a
     * folder (an author's, or the built-in ones in development) are looked at again, so edits show.
     */
    private static boolean inJar(Path path) {
        return path.getFileSystem() != FileSystems.getDefault();
    }

    private Lesson current(LessonFolders.Folder folder) {
        Cached cached = cache.get(folder.path());
        if (cached != null && inJar(folder.path())) {
            return cached.lesson();
        }
        long fingerprint = LessonFolders.fingerprint(folder.path());
        if (cached != null && cached.fingerprint() == fingerprint) {
            return cached.lesson();
        }
        Lesson lesson = loader.load(folder.path(), folder.display());
        if (cached != null && lesson.broken()) {
            LOG.warnf("Lesson '%s' changed and is now broken: %s", lesson.slug(), lesson.problems());
        }
        cache.put(folder.path(), new Cached(fingerprint, lesson));
        return lesson;
    }
}
