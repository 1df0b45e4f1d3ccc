package dev.tclab.lesson;

import dev.tclab.http.Quote;
import dev.tclab.quiz.OptionOrder;
import dev.tclab.quiz.OptionShuffle;
import dev.tclab.quiz.Quiz;
import dev.tclab.quiz.QuizAttempt;
import dev.tclab.quiz.QuizGrader;
import dev.tclab.quiz.QuizResults;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.KernelCapabilities;
import dev.tclab.runtime.LabEngine;
import dev.tclab.system.SystemStatus;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/** Lessons from one learner's side: their parameter values, their lab's kernel, their quiz answers. */
@ApplicationScoped
public class LearnerLessons {

    private static final Logger LOG = Logger.getLogger(LearnerLessons.class);

    /** How far a learner is in a lesson: quizzes whose latest answer is correct, out of all quizzes. */
    public record Progress(int quizzesCorrect, int quizzesTotal) {}

    private final LessonCatalog catalog;
    private final QuizResults results;
    private final SystemStatus system;
    private final CheckBlockValidator checkValidator;
    private final LabEngine engine;
    private final OptionShuffle shuffle;

    public LearnerLessons(
            LessonCatalog catalog,
            QuizResults results,
            SystemStatus system,
            CheckBlockValidator checkValidator,
            LabEngine engine,
            OptionShuffle shuffle) {
        this.engine = engine;
        this.catalog = catalog;
        this.results = results;
        this.system = system;
        this.checkValidator = checkValidator;
        this.shuffle = shuffle;
    }

    public Lesson lesson(String slug) throws LessonNotFoundException {
        return catalog.lesson(slug)
                .orElseThrow(() -> new LessonNotFoundException("There is no lesson " + Quote.of(slug) + "."));
    }

    /** A lesson that exists and is not broken, so its lab, pages and checks can be used. */
    public Lesson openable(String slug) throws LessonNotFoundException, LessonBrokenException {
        Lesson lesson = lesson(slug);
        if (lesson.broken()) {
            throw new LessonBrokenException(lesson);
        }
        return lesson;
    }

    /** The lesson as this learner sees it: its guarded blocks chosen for the kernel its lab runs on, each quiz's
     * options in their own order. */
    public LessonView view(Lesson lesson, String learner) {
        KernelCapabilities kernel = kernelOf(lesson);
        return LessonRenderer.render(
                lesson,
                Parameters.forLearner(learner, lesson.slug(), lesson.meta().parameters()),
                kernel::supports,
                results.attempts(learner, lesson.slug()),
                shuffle.forLearner(learner, lesson.slug()),
                checkValidator);
    }

    /**
     * The kernel the lesson's lab runs on: the lab's own (UML) or the host's. Should the UML kernel not answer its
     * probe, the page is shown for the host's kernel (its fallbacks run in UML too) and the start says what failed.
     */
    private KernelCapabilities kernelOf(Lesson lesson) {
        if (lesson.topology() != null) {
            try {
                Optional<KernelCapabilities> own = engine.ownKernel(lesson.topology(), lesson.slug());
                if (own.isPresent()) {
                    return own.get();
                }
            } catch (EngineUnavailableException e) {
                LOG.warnf("Lesson %s is shown for the host's kernel: %s", lesson.slug(), e.getMessage());
            }
        }
        return system.snapshot().kernel();
    }

    /**
     * Whether the lesson's labs get a kernel of their own here (User-Mode Linux), told without booting one: the
     * catalog says so of every lesson. False when the engine cannot say (the catalog's banner says why).
     */
    public boolean runsOwnKernel(Lesson lesson) {
        try {
            return lesson.topology() != null && engine.runsOwnKernel(lesson.topology(), lesson.slug());
        } catch (EngineUnavailableException e) {
            return false;
        }
    }

    public Progress progress(Lesson lesson, String learner) {
        Map<String, QuizAttempt> attempts = results.attempts(learner, lesson.slug());
        int correct = (int) lesson.quizIds().stream()
                .filter(id -> attempts.containsKey(id) && attempts.get(id).correct())
                .count();
        return new Progress(correct, lesson.quizIds().size());
    }

    /**
     * Grades the learner's answer to a quiz and keeps it as their latest attempt. {@code choices} are positions in
     * the order the learner sees the options in (so are the result's explanations); the attempt keeps the author's
     * indexes, and the order is kept as the one this learner answers in.
     */
    public QuizGrader.Result answer(String slug, String quizId, String learner, List<Integer> choices)
            throws LessonNotFoundException, LessonBrokenException, QuizGrader.InvalidAnswerException {
        Lesson lesson = openable(slug);
        LessonView view = view(lesson, learner);
        Quiz quiz = view.quiz(quizId)
                .orElseThrow(() -> new LessonNotFoundException(
                        "Lesson " + Quote.of(slug) + " has no quiz " + Quote.of(quizId) + "."));
        QuizGrader.Result result = QuizGrader.grade(quiz, choices);
        OptionOrder order = view.optionOrders().get(quizId);
        shuffle.answeredIn(learner, slug, quizId, order);
        results.record(
                learner,
                slug,
                new QuizAttempt(quizId, order.toAuthored(QuizGrader.validChoices(quiz, choices)), result.correct()));
        return result;
    }
}
