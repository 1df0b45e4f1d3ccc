package dev.tclab.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.http.Quote;
import dev.tclab.learner.CurrentLearner;
import dev.tclab.lesson.Course;
import dev.tclab.lesson.LearnerLessons;
import dev.tclab.lesson.Lesson;
import dev.tclab.lesson.LessonBrokenException;
import dev.tclab.lesson.LessonCatalog;
import dev.tclab.lesson.LessonNotFoundException;
import dev.tclab.lesson.LessonView;
import dev.tclab.lesson.markdown.LessonMarkdown;
import dev.tclab.quiz.Quiz;
import dev.tclab.quiz.QuizGrader;
import dev.tclab.yaml.FileProblem;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Lessons and quizzes as JSON. Quiz answers never leave the server before the learner has answered. */
@Path("/api/lessons")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
public class LessonApi {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ANSWER_SHAPE =
            "Send {\"choices\": [0]} with the positions of the chosen options" + " in the quiz's list (from 0).";

    /**
     * A lesson in the list. {@code progress} counts this learner's correctly answered quizzes; {@code track} is the id
     * of the course's track that holds the lesson and {@code place} its place there (from 1), both null for a lesson
     * in no track ({@code GET /api/tracks}).
     */
    public record LessonSummary(
            String slug,
            String title,
            String summary,
            String level,
            int minutes,
            List<String> requires,
            List<String> uses,
            List<String> prerequisites,
            boolean broken,
            List<String> problems,
            List<String> warnings,
            LearnerLessons.Progress progress,
            String track,
            Integer place) {}

    /**
     * A quiz as the learner gets it: no answers, no explanations, the options in this learner's own order (an
     * answer's choices are positions in this list).
     */
    public record QuizQuestion(String id, String question, boolean multiple, List<String> options) {
        static QuizQuestion of(Quiz quiz) {
            return new QuizQuestion(
                    quiz.id(),
                    quiz.question(),
                    quiz.multiple(),
                    quiz.options().stream().map(Quiz.Option::text).toList());
        }
    }

    /**
     * A graded answer, with the verdict in words ({@code message}: for a pick-all quiz, how many choices are wrong
     * and how many right options were left out). Each explanation also comes as HTML, as the lesson page renders it.
     */
    public record Verdict(boolean correct, List<Explanation> explanations, String message) {
        static Verdict of(QuizGrader.Result result) {
            return new Verdict(
                    result.correct(),
                    result.explanations().stream().map(Explanation::of).toList(),
                    result.message());
        }
    }

    public record Explanation(int option, boolean correct, String why, String whyHtml) {
        static Explanation of(QuizGrader.Explanation explanation) {
            return new Explanation(
                    explanation.option(),
                    explanation.correct(),
                    explanation.why(),
                    LessonMarkdown.inline(explanation.why()));
        }
    }

    public record CheckInfo(String id, String title) {}

    public record StepInfo(String id, String title, List<CheckInfo> checks, List<QuizQuestion> quizzes) {}

    /** One lesson for this learner: its steps with checks and quizzes, and its lab's terminal nodes. */
    public record LessonDetail(
            LessonSummary lesson, List<String> nodes, List<QuizQuestion> introQuizzes, List<StepInfo> steps) {}

    private final LessonCatalog catalog;
    private final LearnerLessons learnerLessons;
    private final CurrentLearner learner;

    public LessonApi(LessonCatalog catalog, LearnerLessons learnerLessons, CurrentLearner learner) {
        this.catalog = catalog;
        this.learnerLessons = learnerLessons;
        this.learner = learner;
    }

    @GET
    public List<LessonSummary> list() {
        String learner = this.learner.id();
        Course course = catalog.course();
        return catalog.lessons().stream().map(l -> summary(l, learner, course)).toList();
    }

    @GET
    @Path("/{slug}")
    public LessonDetail get(@PathParam("slug") String slug) throws LessonNotFoundException {
        String learner = this.learner.id();
        Lesson lesson = learnerLessons.lesson(slug);
        LessonView view = learnerLessons.view(lesson, learner);
        List<StepInfo> steps = view.steps().stream()
                .map(s -> new StepInfo(
                        s.id(),
                        s.title(),
                        s.checks().stream()
                                .map(c -> new CheckInfo(c.id(), c.title()))
                                .toList(),
                        s.quizzes().stream().map(QuizQuestion::of).toList()))
                .toList();
        List<String> nodes =
                lesson.topology() == null ? List.of() : lesson.topology().interactiveNodes();
        return new LessonDetail(
                summary(lesson, learner, catalog.course()),
                nodes,
                view.introQuizzes().stream().map(QuizQuestion::of).toList(),
                steps);
    }

    @POST
    @Path("/{slug}/quizzes/{quizId}")
    @Consumes(MediaType.WILDCARD)
    public Verdict answer(@PathParam("slug") String slug, @PathParam("quizId") String quizId, String body)
            throws LessonNotFoundException, LessonBrokenException, QuizGrader.InvalidAnswerException {
        return Verdict.of(learnerLessons.answer(slug, quizId, learner.id(), choices(body)));
    }

    private static List<Integer> choices(String body) throws QuizGrader.InvalidAnswerException {
        JsonNode root;
        try {
            root = body == null || body.isBlank() ? null : JSON.readTree(body);
        } catch (IOException e) {
            throw new QuizGrader.InvalidAnswerException("The body is not valid JSON. " + ANSWER_SHAPE);
        }
        if (root == null || !root.isObject() || !root.path("choices").isArray()) {
            throw new QuizGrader.InvalidAnswerException("The body has no \"choices\" list. " + ANSWER_SHAPE);
        }
        List<Integer> choices = new ArrayList<>();
        for (JsonNode choice : root.get("choices")) {
            if (!choice.isInt()) {
                throw new QuizGrader.InvalidAnswerException("Choices are option indexes (whole numbers from 0), found "
                        + Quote.of(choice.toString()) + ". " + ANSWER_SHAPE);
            }
            choices.add(choice.intValue());
        }
        return choices;
    }

    private LessonSummary summary(Lesson lesson, String learner, Course course) {
        Optional<Course.Place> place = course.place(lesson.slug());
        return new LessonSummary(
                lesson.slug(),
                lesson.meta().title(),
                lesson.meta().summary(),
                lesson.meta().level(),
                lesson.meta().minutes(),
                lesson.meta().requires(),
                lesson.meta().uses(),
                lesson.meta().prerequisites(),
                lesson.broken(),
                lesson.problems().stream().map(FileProblem::toString).toList(),
                lesson.warnings().stream().map(FileProblem::asWarning).toList(),
                learnerLessons.progress(lesson, learner),
                place.map(p -> p.track().id()).orElse(null),
                place.map(Course.Place::place).orElse(null));
    }
}
