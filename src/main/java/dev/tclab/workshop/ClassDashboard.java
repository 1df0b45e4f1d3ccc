package dev.tclab.workshop;

import dev.tclab.lab.Lab;
import dev.tclab.lab.LabService;
import dev.tclab.lesson.LearnerLessons;
import dev.tclab.lesson.Lesson;
import dev.tclab.lesson.LessonCatalog;
import dev.tclab.metrics.OperatorMetrics;
import dev.tclab.metrics.ServerLoad;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The host's view of a class, computed from the stores (check runs, quiz attempts) and the lab service: one row
 * per learner and, per graded step, how many passed it and how many are stuck on it. Blocking (database).
 */
@ApplicationScoped
public class ClassDashboard {

    /** A graded step (one with checks) of an event lesson. */
    public record GradedStep(String lesson, String stepId, String title) {}

    /** Per step: learners who passed it, and learners stuck there (on it now, with a failed check on it). */
    public record StepTally(String lesson, String stepId, String title, int passed, int stuck) {}

    /**
     * One learner.
     *
     * @param lesson       the lesson they work on (their newest lab's, else the first event lesson not finished)
     * @param currentStep  the graded step of that lesson they work on: their last checked step if not passed, else the
     *                     first they have not passed (null: all passed; {@link #workingOn})
     * @param currentStepTitle that step's title
     * @param onStepSince  when they started on the current step (their first check on it, else their last pass)
     * @param lastFailure  the step title and detail of the failing check run of the step they are stuck on (so it
     *                     agrees with the tally's stuck count), else of their latest run if that failed, else null
     * @param nodes        the nodes of their running lab with a terminal (empty without a running lab)
     */
    public record Row(
            String learnerId,
            String name,
            String lesson,
            String currentStep,
            String currentStepTitle,
            int stepsPassed,
            int stepsTotal,
            int quizzesRight,
            int quizzesTotal,
            String labId,
            String labStatus,
            Instant lastActivity,
            Instant onStepSince,
            String lastFailure,
            String lastRunId,
            List<String> nodes) {}

    /** The whole view; {@code server}: the whole server's labs and engine, as the operator gauges read them. */
    public record View(
            String eventId,
            String title,
            String status,
            Instant endsAt,
            List<StepTally> steps,
            List<Row> learners,
            List<HostAction> actions,
            Instant at,
            ServerLoad server) {}

    private final WorkshopService workshops;
    private final ProgressReader progress;
    private final LabService labs;
    private final LessonCatalog catalog;
    private final LearnerLessons learnerLessons;
    private final OperatorMetrics metrics;
    private final Map<Lesson, List<GradedStep>> stepsCache = new java.util.concurrent.ConcurrentHashMap<>();

    public ClassDashboard(
            WorkshopService workshops,
            ProgressReader progress,
            LabService labs,
            LessonCatalog catalog,
            LearnerLessons learnerLessons,
            OperatorMetrics metrics) {
        this.workshops = workshops;
        this.progress = progress;
        this.labs = labs;
        this.catalog = catalog;
        this.learnerLessons = learnerLessons;
        this.metrics = metrics;
    }

    /** The graded steps of the event's lessons, in order. Which checks a step has does not depend on the learner. */
    public List<GradedStep> gradedSteps(WorkshopEvent event) {
        List<GradedStep> steps = new ArrayList<>();
        for (String slug : event.lessons()) {
            catalog.lesson(slug)
                    .filter(l -> !l.broken())
                    .ifPresent(lesson -> steps.addAll(stepsCache.computeIfAbsent(
                            lesson,
                            l -> learnerLessons.view(l, "workshop-dashboard").steps().stream()
                                    .filter(s -> !s.checks().isEmpty())
                                    .map(s -> new GradedStep(l.slug(), s.id(), s.title()))
                                    .toList())));
        }
        return steps;
    }

    /** The event's quizzes as (lesson, quiz id). */
    public List<String[]> quizzes(WorkshopEvent event) {
        List<String[]> quizzes = new ArrayList<>();
        for (String slug : event.lessons()) {
            catalog.lesson(slug).ifPresent(l -> l.quizIds().forEach(q -> quizzes.add(new String[] {slug, q})));
        }
        return quizzes;
    }

    public View view(WorkshopEvent event) {
        List<Seat> seats = workshops.seats(event.id());
        List<String> ids = seats.stream().map(Seat::learnerId).toList();
        List<GradedStep> graded = gradedSteps(event);
        List<String[]> quizzes = quizzes(event);
        Map<String, List<ProgressReader.StepRuns>> runsBy = progress.steps(ids, event.lessons()).stream()
                .collect(Collectors.groupingBy(ProgressReader.StepRuns::learnerId));
        Map<String, List<ProgressReader.QuizAnswers>> answersBy = progress.quizzes(ids, event.lessons()).stream()
                .collect(Collectors.groupingBy(ProgressReader.QuizAnswers::learnerId));
        Map<String, List<Lab>> labsBy = labs.labsOf(ids);
        Map<String, int[]> tally = new HashMap<>();
        List<Row> rows = new ArrayList<>();
        for (Seat seat : seats) {
            String id = seat.learnerId();
            Row row = row(
                    event,
                    seat,
                    graded,
                    quizzes,
                    runsBy.getOrDefault(id, List.of()),
                    answersBy.getOrDefault(id, List.of()),
                    labsBy.getOrDefault(id, List.of()),
                    tally);
            rows.add(row);
        }
        List<StepTally> steps = graded.stream()
                .map(s -> {
                    int[] t = tally.getOrDefault(s.lesson() + "\n" + s.stepId(), new int[2]);
                    return new StepTally(s.lesson(), s.stepId(), s.title(), t[0], t[1]);
                })
                .toList();
        Instant now = workshops.now();
        return new View(
                event.id(),
                event.title(),
                event.status(now),
                event.end().orElse(null),
                steps,
                rows,
                workshops.actions(event.id()),
                now,
                metrics.load());
    }

    private Row row(
            WorkshopEvent event,
            Seat seat,
            List<GradedStep> graded,
            List<String[]> quizzes,
            List<ProgressReader.StepRuns> runs,
            List<ProgressReader.QuizAnswers> answers,
            List<Lab> labsOfSeat,
            Map<String, int[]> tally) {
        Map<String, ProgressReader.StepRuns> byStep =
                runs.stream().collect(Collectors.toMap(r -> r.lesson() + "\n" + r.stepId(), r -> r, (a, b) -> b));
        int passed = 0;
        for (GradedStep s : graded) {
            ProgressReader.StepRuns r = byStep.get(s.lesson() + "\n" + s.stepId());
            if (r != null && r.firstPassedAt() != null) {
                passed++;
                tally.computeIfAbsent(s.lesson() + "\n" + s.stepId(), k -> new int[2])[0]++;
            }
        }
        int right = (int) answers.stream()
                .filter(ProgressReader.QuizAnswers::latestCorrect)
                .filter(a -> quizzes.stream().anyMatch(q -> q[0].equals(a.lesson()) && q[1].equals(a.quizId())))
                .count();
        Optional<Lab> lab = labsOfSeat.stream()
                .filter(l -> event.lessons().contains(l.lesson()))
                .findFirst();
        String lesson = lab.map(Lab::lesson)
                .orElseGet(() -> graded.stream()
                        .filter(s -> notPassed(byStep, s))
                        .map(GradedStep::lesson)
                        .findFirst()
                        .orElse(event.lessons().get(0)));
        Optional<GradedStep> current = workingOn(graded, lesson, runs, byStep);
        Instant onStepSince = null;
        ProgressReader.StepRuns stuckOn = null;
        if (current.isPresent()) {
            ProgressReader.StepRuns r = byStep.get(lesson + "\n" + current.get().stepId());
            onStepSince = r != null
                    ? r.firstRunAt()
                    : runs.stream()
                            .map(ProgressReader.StepRuns::firstPassedAt)
                            .filter(java.util.Objects::nonNull)
                            .max(Comparator.naturalOrder())
                            .orElse(seat.joinedAt());
            if (r != null && failed(r)) {
                stuckOn = r;
                tally.computeIfAbsent(lesson + "\n" + current.get().stepId(), k -> new int[2])[1]++;
            }
        }
        ProgressReader.StepRuns latest = runs.stream()
                .max(Comparator.comparing(ProgressReader.StepRuns::lastAt))
                .orElse(null);
        // A learner counted stuck on a step shows that step's failing check, so the tally and the row agree; else
        // their latest check if it failed (re-checking a step passed before, say).
        ProgressReader.StepRuns failing = stuckOn != null ? stuckOn : latest != null && failed(latest) ? latest : null;
        String lastFailure = failing == null ? null : titleOf(graded, failing) + ": " + failing.lastDetail();
        Instant activity = seat.joinedAt();
        for (ProgressReader.StepRuns r : runs) {
            activity = later(activity, r.lastAt());
        }
        for (ProgressReader.QuizAnswers a : answers) {
            activity = later(activity, a.lastAt());
        }
        if (lab.isPresent()) {
            activity = later(activity, lab.get().lastActivity());
        }
        return new Row(
                seat.learnerId(),
                seat.displayName(),
                lesson,
                current.map(GradedStep::stepId).orElse(null),
                current.map(GradedStep::title).orElse(null),
                passed,
                graded.size(),
                right,
                quizzes.size(),
                lab.map(Lab::id).orElse(null),
                lab.map(l -> l.phase().name().toLowerCase(java.util.Locale.ROOT))
                        .orElse("none"),
                activity,
                onStepSince,
                lastFailure,
                latest == null ? null : latest.lastRunId(),
                lab.filter(l -> l.phase() == dev.tclab.lab.LabPhase.RUNNING)
                        .map(l -> l.topology().interactiveNodes())
                        .orElse(List.of()));
    }

    /**
     * The step a learner is working on in {@code lesson}: the step of their latest check run there when they have not
     * passed it (a learner may skip ahead and keep failing a later step; that is where they are stuck), else the
     * lesson's first graded step they have not passed; empty when they passed them all.
     */
    static Optional<GradedStep> workingOn(
            List<GradedStep> graded,
            String lesson,
            List<ProgressReader.StepRuns> runs,
            Map<String, ProgressReader.StepRuns> byStep) {
        Optional<GradedStep> checkedLast = runs.stream()
                .filter(r -> r.lesson().equals(lesson))
                .max(Comparator.comparing(ProgressReader.StepRuns::lastAt))
                .flatMap(r -> graded.stream()
                        .filter(s -> s.lesson().equals(lesson) && s.stepId().equals(r.stepId()))
                        .findFirst())
                .filter(s -> notPassed(byStep, s));
        return checkedLast.or(() -> graded.stream()
                .filter(s -> s.lesson().equals(lesson))
                .filter(s -> notPassed(byStep, s))
                .findFirst());
    }

    private static boolean failed(ProgressReader.StepRuns runs) {
        return "failed".equals(runs.lastState()) || "error".equals(runs.lastState());
    }

    private static String titleOf(List<GradedStep> graded, ProgressReader.StepRuns runs) {
        return graded.stream()
                .filter(s -> s.lesson().equals(runs.lesson()) && s.stepId().equals(runs.stepId()))
                .map(GradedStep::title)
                .findFirst()
                .orElse(runs.stepId());
    }

    private static boolean notPassed(Map<String, ProgressReader.StepRuns> byStep, GradedStep s) {
        ProgressReader.StepRuns r = byStep.get(s.lesson() + "\n" + s.stepId());
        return r == null || r.firstPassedAt() == null;
    }

    private static Instant later(Instant a, Instant b) {
        return b != null && b.isAfter(a) ? b : a;
    }
}
