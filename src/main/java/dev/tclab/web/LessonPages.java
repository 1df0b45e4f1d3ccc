package dev.tclab.web;

import dev.tclab.grading.StepProgress;
import dev.tclab.http.Quote;
import dev.tclab.lab.Lab;
import dev.tclab.lab.LabPhase;
import dev.tclab.lab.LabService;
import dev.tclab.learner.CurrentLearner;
import dev.tclab.lesson.Course;
import dev.tclab.lesson.LearnerLessons;
import dev.tclab.lesson.Lesson;
import dev.tclab.lesson.LessonBrokenException;
import dev.tclab.lesson.LessonCatalog;
import dev.tclab.lesson.LessonNotFoundException;
import dev.tclab.lesson.LessonView;
import dev.tclab.lesson.Track;
import dev.tclab.quiz.QuizGrader;
import dev.tclab.runtime.KernelCapabilities;
import dev.tclab.system.SystemStatus;
import dev.tclab.yaml.FileProblem;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The server-rendered pages: the lesson catalog and a lesson, whose quizzes are plain HTML forms. */
@Path("/")
@Produces(MediaType.TEXT_HTML)
@Blocking
public class LessonPages {

    /**
     * One kernel feature a lesson requires, and whether this server's kernel has it: yes, no or unknown (not probed
     * yet); own when the lesson's lab gets a kernel of its own, which has it.
     */
    public record Requirement(String feature, String state) {
        public String symbol() {
            return switch (state) {
                case "yes", "own" -> "✓";
                case "no" -> "✗";
                default -> "?";
            };
        }

        /** The feature's kind in words ("qdisc:tbf" is "queueing discipline"), named beside it; else empty. */
        public String kind() {
            return switch (feature.substring(0, Math.max(0, feature.indexOf(':')))) {
                case "qdisc" -> "queueing discipline (qdisc)";
                case "filter" -> "packet filter";
                case "action" -> "filter action";
                case "link" -> "network device";
                default -> "";
            };
        }

        /** The feature's own name ("tbf" of "qdisc:tbf"). */
        public String name() {
            return feature.substring(feature.indexOf(':') + 1);
        }

        public String words() {
            return switch (state) {
                case "yes" -> "available on this server";
                case "no" -> "missing on this server";
                case "own" -> "in the lab's own kernel";
                default -> "not checked yet";
            };
        }
    }

    /**
     * A lesson's card in the catalog.
     *
     * @param stepsPassed steps whose checks all passed for this learner, of {@code stepsTotal} steps with checks
     * @param labId       the learner's live lab for this lesson, or null
     * @param labQueued   whether that lab still waits in the start queue
     * @param place       the lesson's place in its track, or null when it is in none
     * @param prerequisites the lessons to do first that exist
     */
    public record Card(
            Lesson lesson,
            List<Requirement> requirements,
            LearnerLessons.Progress progress,
            int stepsPassed,
            int stepsTotal,
            String labId,
            boolean labQueued,
            Course.Place place,
            List<Lesson> prerequisites,
            boolean ownKernel) {

        /**
         * Whether this learner has done the lesson: every graded step passed (the lesson page then says "Lesson
         * complete"), or, in a lesson without graded steps, every quiz answered correctly.
         */
        public boolean done() {
            return stepsTotal > 0
                    ? stepsPassed == stepsTotal
                    : progress.quizzesTotal() > 0 && progress.quizzesCorrect() == progress.quizzesTotal();
        }
    }

    /** A track in the catalog: its working lessons' cards in order, and how far this learner is in it. */
    public record TrackGroup(Track track, List<Card> cards) {

        public long lessonsDone() {
            return cards.stream().filter(Card::done).count();
        }

        public int stepsPassed() {
            return cards.stream().mapToInt(Card::stepsPassed).sum();
        }

        public int stepsTotal() {
            return cards.stream().mapToInt(Card::stepsTotal).sum();
        }
    }

    /**
     * Where the lesson-complete summary, or the catalog's first line, sends the learner.
     *
     * @param words what leads to the link, e.g. {@code Next in Foundations:}
     */
    public record Next(String words, Lesson lesson) {}

    @CheckedTemplate
    static class Templates {
        static native TemplateInstance catalog(
                List<TrackGroup> tracks,
                List<Card> more,
                Next startHere,
                List<Lesson> broken,
                List<Lesson> warned,
                List<FileProblem> courseProblems);

        static native TemplateInstance lesson(Lesson lesson, LessonView view, String nodes, Next next);

        static native TemplateInstance broken(Lesson lesson);

        static native TemplateInstance notFound(String message);

        static native TemplateInstance answerRejected(String slug, String quizId, String message);
    }

    private final LessonCatalog catalog;
    private final LearnerLessons learnerLessons;
    private final SystemStatus system;
    private final StepProgress stepProgress;
    private final LabService labs;
    private final CurrentLearner learner;

    public LessonPages(
            LessonCatalog catalog,
            LearnerLessons learnerLessons,
            SystemStatus system,
            StepProgress stepProgress,
            LabService labs,
            CurrentLearner learner) {
        this.catalog = catalog;
        this.learnerLessons = learnerLessons;
        this.system = system;
        this.stepProgress = stepProgress;
        this.labs = labs;
        this.learner = learner;
    }

    /**
     * The catalog: the course's tracks in order, each with its working lessons in order and this learner's progress,
     * then "More lessons" (those in no track), then the broken lessons and the course file's problems for authors.
     */
    @GET
    public TemplateInstance catalog() {
        String learner = this.learner.id();
        KernelCapabilities kernel = system.snapshot().kernel();
        List<Lesson> lessons = catalog.lessons();
        Course course = catalog.course();
        Map<String, Lesson> bySlug = lessons.stream().collect(Collectors.toMap(Lesson::slug, Function.identity()));
        List<Lab> liveLabs =
                labs.labsOf(learner).stream().filter(lab -> lab.phase().live()).toList();
        Map<String, Card> cards = new LinkedHashMap<>();
        List<Lesson> broken = new ArrayList<>();
        for (Lesson lesson : lessons) {
            if (lesson.broken()) {
                broken.add(lesson);
            } else {
                cards.put(lesson.slug(), card(lesson, kernel, learner, liveLabs, course, bySlug));
            }
        }
        List<TrackGroup> tracks = new ArrayList<>();
        for (Track track : course.tracks()) {
            List<Card> inTrack = track.lessons().stream()
                    .map(cards::remove)
                    .filter(card -> card != null)
                    .toList();
            if (!inTrack.isEmpty()) {
                tracks.add(new TrackGroup(track, inTrack));
            }
        }
        List<Card> more = List.copyOf(cards.values());
        List<Lesson> warned =
                lessons.stream().filter(l -> !l.warnings().isEmpty()).toList();
        return Templates.catalog(tracks, more, startHere(tracks, more), broken, warned, course.problems());
    }

    /**
     * Where this learner goes next, said above the lessons: the first lesson, in the course's order, they have not
     * done; "New here? Start with" it when they have begun none. Null once every lesson is done.
     */
    static Next startHere(List<TrackGroup> tracks, List<Card> more) {
        List<Card> inOrder = new ArrayList<>();
        tracks.forEach(group -> inOrder.addAll(group.cards()));
        inOrder.addAll(more);
        boolean begun = inOrder.stream()
                .anyMatch(c -> c.stepsPassed() > 0 || c.progress().quizzesCorrect() > 0 || c.labId() != null);
        return inOrder.stream()
                .filter(c -> !c.done())
                .findFirst()
                .map(c -> new Next(begun ? "Next for you:" : "New here? Start with", c.lesson()))
                .orElse(null);
    }

    @GET
    @Path("lessons/{slug}")
    public Response lesson(@PathParam("slug") String slug) {
        Lesson lesson;
        try {
            lesson = learnerLessons.lesson(slug);
        } catch (LessonNotFoundException e) {
            return Response.status(Response.Status.NOT_FOUND)
                    .entity(Templates.notFound(e.getMessage()))
                    .build();
        }
        if (lesson.broken()) {
            return Response.serverError().entity(Templates.broken(lesson)).build();
        }
        LessonView view = learnerLessons.view(lesson, learner.id());
        String nodes = lesson.topology() == null
                ? ""
                : String.join(",", lesson.topology().interactiveNodes());
        return Response.ok(Templates.lesson(lesson, view, nodes, next(lesson))).build();
    }

    /**
     * Where the lesson-complete summary points: the next working lesson of the lesson's track, else the first of the
     * next track that has one; for a lesson in no track, the next working one in the catalog's order. Null if none.
     */
    private Next next(Lesson lesson) {
        Course course = catalog.course();
        Optional<Course.Place> place = course.place(lesson.slug());
        if (place.isEmpty()) {
            List<Lesson> lessons = catalog.lessons();
            int at = lessons.stream().map(Lesson::slug).toList().indexOf(lesson.slug());
            return lessons.stream()
                    .skip(at + 1L)
                    .filter(l -> !l.broken() && course.place(l.slug()).isEmpty())
                    .findFirst()
                    .map(l -> new Next("Next:", l))
                    .orElse(null);
        }
        Track track = place.get().track();
        Optional<Lesson> inTrack = firstWorking(
                track.lessons().subList(place.get().place(), track.lessons().size()));
        if (inTrack.isPresent()) {
            return new Next("Next in " + track.title() + ":", inTrack.get());
        }
        for (Optional<Track> later = course.after(track); later.isPresent(); later = course.after(later.get())) {
            Optional<Lesson> first = firstWorking(later.get().lessons());
            if (first.isPresent()) {
                return new Next(
                        "You have finished " + track.title() + ". Next, "
                                + later.get().title() + ":",
                        first.get());
            }
        }
        return null;
    }

    private Optional<Lesson> firstWorking(List<String> slugs) {
        return slugs.stream()
                .map(catalog::lesson)
                .flatMap(Optional::stream)
                .filter(l -> !l.broken())
                .findFirst();
    }

    private Card card(
            Lesson lesson,
            KernelCapabilities kernel,
            String learner,
            List<Lab> liveLabs,
            Course course,
            Map<String, Lesson> bySlug) {
        Map<String, Boolean> passed = stepProgress.checks(learner, lesson.slug());
        List<LessonView.StepView> graded = learnerLessons.view(lesson, learner).steps().stream()
                .filter(step -> !step.checks().isEmpty())
                .toList();
        int stepsPassed = (int) graded.stream()
                .filter(step -> step.checks().stream().allMatch(c -> Boolean.TRUE.equals(passed.get(c.id()))))
                .count();
        Lab lab = liveLabs.stream()
                .filter(l -> l.lesson().equals(lesson.slug()))
                .findFirst()
                .orElse(null);
        boolean ownKernel = learnerLessons.runsOwnKernel(lesson);
        return new Card(
                lesson,
                ownKernel ? inOwnKernel(lesson) : requirements(lesson, kernel),
                learnerLessons.progress(lesson, learner),
                stepsPassed,
                graded.size(),
                lab == null ? null : lab.id(),
                lab != null && lab.phase() == LabPhase.QUEUED,
                course.place(lesson.slug()).orElse(null),
                lesson.meta().prerequisites().stream()
                        .map(bySlug::get)
                        .filter(l -> l != null)
                        .toList(),
                ownKernel);
    }

    /** The no-JavaScript quiz answer: grade, keep, and send the learner back to the quiz to read the verdict. */
    @POST
    @Path("lessons/{slug}/quizzes/{quizId}")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response answer(
            @PathParam("slug") String slug,
            @PathParam("quizId") String quizId,
            @FormParam("choice") List<String> choice) {
        try {
            learnerLessons.answer(slug, quizId, learner.id(), indexes(choice));
        } catch (LessonNotFoundException e) {
            return Response.status(Response.Status.NOT_FOUND)
                    .entity(Templates.notFound(e.getMessage()))
                    .build();
        } catch (LessonBrokenException e) {
            return Response.status(Response.Status.CONFLICT)
                    .entity(Templates.notFound(e.getMessage()))
                    .build();
        } catch (QuizGrader.InvalidAnswerException e) {
            return Response.status(Response.Status.BAD_REQUEST)
                    .entity(Templates.answerRejected(slug, quizId, e.getMessage()))
                    .build();
        }
        return Response.seeOther(URI.create("/lessons/" + slug + "#quiz-" + quizId))
                .build();
    }

    private static List<Integer> indexes(List<String> choice) throws QuizGrader.InvalidAnswerException {
        List<Integer> indexes = new ArrayList<>();
        for (String c : choice == null ? List.<String>of() : choice) {
            try {
                indexes.add(Integer.parseInt(c.strip()));
            } catch (NumberFormatException e) {
                throw new QuizGrader.InvalidAnswerException(Quote.of(c) + " is not an option number.");
            }
        }
        return indexes;
    }

    static List<Requirement> requirements(Lesson lesson, KernelCapabilities kernel) {
        return lesson.meta().requires().stream()
                .map(f -> new Requirement(f, !kernel.probed() ? "unknown" : kernel.supports(f) ? "yes" : "no"))
                .toList();
    }

    /**
     * The features of a lesson whose lab gets a kernel of its own: that kernel (User-Mode Linux, with every qdisc,
     * classifier and action; the UML probe tests hold it) has them, whatever this server's lacks.
     */
    static List<Requirement> inOwnKernel(Lesson lesson) {
        return lesson.meta().requires().stream()
                .map(f -> new Requirement(f, "own"))
                .toList();
    }
}
