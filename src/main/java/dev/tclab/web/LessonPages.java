package dev.tclab.web;

import dev.tclab.lab.KernelCapabilities;
import dev.tclab.lesson.LearnerLessons;
import dev.tclab.lesson.Lesson;
import dev.tclab.lesson.LessonBrokenException;
import dev.tclab.lesson.LessonCatalog;
import dev.tclab.lesson.LessonNotFoundException;
import dev.tclab.lesson.LessonView;
import dev.tclab.learner.CurrentLearner;
import dev.tclab.quiz.QuizGrader;
import dev.tclab.system.SystemStatus;
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
import java.util.List;

/** The server-rendered pages: the lesson catalog and a lesson, whose quizzes are plain HTML forms. */
@Path("/")
@Produces(MediaType.TEXT_HTML)
@Blocking
public class LessonPages {

    /** One kernel feature a lesson requires, and whether this host has it: yes, no or unknown (not probed yet). */
    public record Requirement(String feature, String state) {
        public String symbol() {
            return switch (state) {
                case "yes" -> "✓";
                case "no" -> "✗";
                default -> "?";
            };
        }

        public String words() {
            return switch (state) {
                case "yes" -> "available on this server";
                case "no" -> "missing on this server";
                default -> "not checked yet";
            };
        }
    }

    /** A lesson's card in the catalog. */
    public record Card(Lesson lesson, List<Requirement> requirements, LearnerLessons.Progress progress) {
    }

    @CheckedTemplate
    static class Templates {
        static native TemplateInstance catalog(List<Card> cards, List<Lesson> broken);

        static native TemplateInstance lesson(Lesson lesson, LessonView view, String nodes);

        static native TemplateInstance broken(Lesson lesson);

        static native TemplateInstance notFound(String message);

        static native TemplateInstance answerRejected(String slug, String quizId, String message);
    }

    private final LessonCatalog catalog;
    private final LearnerLessons learnerLessons;
    private final SystemStatus system;
    private final CurrentLearner learner;

    public LessonPages(LessonCatalog catalog, LearnerLessons learnerLessons, SystemStatus system, CurrentLearner learner) {
        this.catalog = catalog;
        this.learnerLessons = learnerLessons;
        this.system = system;
        this.learner = learner;
    }

    @GET
    public TemplateInstance catalog() {
        String learner = this.learner.id();
        KernelCapabilities kernel = system.snapshot().kernel();
        List<Card> cards = new ArrayList<>();
        List<Lesson> broken = new ArrayList<>();
        for (Lesson lesson : catalog.lessons()) {
            if (lesson.broken()) {
                broken.add(lesson);
            } else {
                cards.add(new Card(lesson, requirements(lesson, kernel), learnerLessons.progress(lesson, learner)));
            }
        }
        return Templates.catalog(cards, broken);
    }

    @GET
    @Path("lessons/{slug}")
    public Response lesson(@PathParam("slug") String slug) {
        Lesson lesson;
        try {
            lesson = learnerLessons.lesson(slug);
        } catch (LessonNotFoundException e) {
            return Response.status(Response.Status.NOT_FOUND).entity(Templates.notFound(e.getMessage())).build();
        }
        if (lesson.broken()) {
            return Response.serverError().entity(Templates.broken(lesson)).build();
        }
        LessonView view = learnerLessons.view(lesson, learner.id());
        String nodes = lesson.topology() == null ? "" : String.join(",", lesson.topology().interactiveNodes());
        return Response.ok(Templates.lesson(lesson, view, nodes)).build();
    }

    /** The no-JavaScript quiz answer: grade, keep, and send the learner back to the quiz to read the verdict. */
    @POST
    @Path("lessons/{slug}/quizzes/{quizId}")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response answer(@PathParam("slug") String slug, @PathParam("quizId") String quizId,
                           @FormParam("choice") List<String> choice) {
        try {
            learnerLessons.answer(slug, quizId, learner.id(), indexes(choice));
        } catch (LessonNotFoundException e) {
            return Response.status(Response.Status.NOT_FOUND).entity(Templates.notFound(e.getMessage())).build();
        } catch (LessonBrokenException e) {
            return Response.status(Response.Status.CONFLICT).entity(Templates.notFound(e.getMessage())).build();
        } catch (QuizGrader.InvalidAnswerException e) {
            return Response.status(Response.Status.BAD_REQUEST)
                    .entity(Templates.answerRejected(slug, quizId, e.getMessage())).build();
        }
        return Response.seeOther(URI.create("/lessons/" + slug + "#quiz-" + quizId)).build();
    }

    private static List<Integer> indexes(List<String> choice) throws QuizGrader.InvalidAnswerException {
        List<Integer> indexes = new ArrayList<>();
        for (String c : choice == null ? List.<String>of() : choice) {
            try {
                indexes.add(Integer.parseInt(c.strip()));
            } catch (NumberFormatException e) {
                throw new QuizGrader.InvalidAnswerException("'" + c + "' is not an option number.");
            }
        }
        return indexes;
    }

    static List<Requirement> requirements(Lesson lesson, KernelCapabilities kernel) {
        return lesson.meta().requires().stream()
                .map(f -> new Requirement(f, !kernel.probed() ? "unknown" : kernel.supports(f) ? "yes" : "no"))
                .toList();
    }
}
