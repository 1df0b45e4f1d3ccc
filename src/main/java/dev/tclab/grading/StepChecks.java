package dev.tclab.grading;

import dev.tclab.common.WorkerThreads;
import dev.tclab.config.TclabConfig;
import dev.tclab.grading.run.BaselineSteps;
import dev.tclab.grading.run.BaselineStore;
import dev.tclab.grading.run.CheckResult;
import dev.tclab.grading.run.CheckRunner;
import dev.tclab.grading.spec.CheckSpec;
import dev.tclab.grading.spec.CheckSpecException;
import dev.tclab.grading.spec.CheckSpecParser;
import dev.tclab.http.Quote;
import dev.tclab.lab.Lab;
import dev.tclab.lab.LabEnded;
import dev.tclab.lab.LabNotFoundException;
import dev.tclab.lab.LabPhase;
import dev.tclab.lab.LabService;
import dev.tclab.lesson.LearnerLessons;
import dev.tclab.lesson.Lesson;
import dev.tclab.lesson.LessonBrokenException;
import dev.tclab.lesson.LessonNotFoundException;
import dev.tclab.lesson.LessonView;
import dev.tclab.lesson.markdown.BlockContext.CheckRef;
import dev.tclab.scheduling.Job;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.scheduler.Scheduled;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Grades lesson steps in learners' labs: runs a step's checks when the learner asks (the Check button), and
 * re-runs watched checks in the background so a step turns green by itself. One run at a time per lab: the
 * measurements share the lab's links and its iperf3 server.
 */
@ApplicationScoped
public class StepChecks {

    private static final Logger LOG = Logger.getLogger(StepChecks.class);

    private final LabService labs;
    private final LearnerLessons lessons;
    private final CheckRunner runner;
    private final StepProgress progress;
    private final BaselineStore baselines;
    /** Finished runs kept in memory per lab, the newest: a learner pressing Check in a loop must not pile up results. */
    static final int KEPT_RUNS_PER_LAB = 5;

    private final CheckRunLog log;
    private final MeterRegistry registry;
    /** Runs of this process, for live progress; finished ones are read back from the log once forgotten here. */
    private final Map<String, CheckRun> runs = new ConcurrentHashMap<>();

    private final Map<String, CheckRun> activeByLab = new ConcurrentHashMap<>();
    private final Map<String, Object> launchLocks = new ConcurrentHashMap<>();
    /**
     * Each lab's lesson as its learner sees it, rendered at its first check: finding a step's checks renders the whole
     * lesson (60-170 ms of CPU for tbf-basics on a busy 2-core host), and a class presses Check together while the
     * watch re-reads every lab's. Kept while the lab lives and its lesson is the same (a reloaded lesson is another).
     */
    private final Map<String, Rendered> views = new ConcurrentHashMap<>();

    private final WatchedLessons watchedLessons = new WatchedLessons();

    private record Rendered(Lesson lesson, LessonView view) {}
    /** Checks block for seconds (iperf3, ping); they never run on request threads. */
    private final ExecutorService workers;

    private final InstantSource clock;

    public StepChecks(
            LabService labs,
            LearnerLessons lessons,
            CheckRunner runner,
            StepProgress progress,
            BaselineStore baselines,
            CheckRunLog log,
            TclabConfig config,
            MeterRegistry registry,
            InstantSource clock) {
        this.clock = clock;
        this.labs = labs;
        this.lessons = lessons;
        this.runner = runner;
        this.progress = progress;
        this.baselines = baselines;
        this.log = log;
        this.registry = registry;
        // One worker per lab that may run (a lab has one run under way at most): a run spends its time waiting for a
        // measurement slot or for its lab, and the slots, not the workers, bound what measuring costs the host. With
        // half as many workers, half a class pressing Check at once waited for a worker without a word
        // (ClassBenchmark).
        this.workers = Executors.newFixedThreadPool(
                Math.max(2, config.lab().maxRunning()), WorkerThreads.named("tclab-check"));
    }

    /**
     * Starts grading a step in the learner's running lab, or returns the run already under way in that lab.
     */
    public CheckRun start(String labId, String owner, String stepId)
            throws LabNotFoundException, StepNotFoundException {
        Lab lab = labs.getRunning(labId, owner);
        lab.touch(clock.instant());
        LessonView view = view(lab);
        List<CheckRef> checks = checksOf(view, lab, stepId);
        if (checks.isEmpty()) {
            throw new StepNotFoundException(
                    "Step " + Quote.of(stepId) + " of lesson '" + lab.lesson() + "' has no checks.");
        }
        return launch(lab, stepId, checks, BaselineSteps.of(view.steps()));
    }

    /**
     * A run of the learner's in a lab, by id: live from this process, else as kept (after a restart, a run that was
     * going on when the app stopped reads as interrupted).
     */
    public Optional<CheckRunView> run(String labId, String runId, String owner) {
        Optional<CheckRun> live = Optional.ofNullable(runs.get(runId))
                .filter(r -> r.owner().equals(owner) && r.labId().equals(labId));
        return live.isPresent() ? live.map(CheckRunView::of) : log.find(labId, runId, owner);
    }

    /** For each step of the lesson with checks: whether every one of its checks has passed for this learner. */
    public Map<String, Boolean> stepsPassed(Lab lab) throws StepNotFoundException {
        Map<String, Boolean> passed = progress.checks(lab.owner(), lab.lesson());
        Map<String, Boolean> steps = new java.util.LinkedHashMap<>();
        for (LessonView.StepView step : view(lab).steps()) {
            if (!step.checks().isEmpty()) {
                steps.put(step.id(), step.checks().stream().allMatch(c -> Boolean.TRUE.equals(passed.get(c.id()))));
            }
        }
        return steps;
    }

    /** The newest finished run of each step the learner checked in this lab, as kept, by step id. */
    public Map<String, CheckRunView> lastRuns(String labId, String owner) {
        return log.lastFinishedByStep(labId, owner);
    }

    /** The run going on in a lab, if any (a learner's or a background watch). */
    public Optional<CheckRun> active(String labId) {
        return Optional.ofNullable(activeByLab.get(labId));
    }

    /**
     * One launch at a time per lab, so a lab never has two runs under way; labs do not wait for each other, since a
     * launch writes to the database, and a class presses Check together (under one lock for all, 30 presses reached
     * their checks over 3.7 s on a busy 2-core host, one database write after another).
     */
    private CheckRun launch(Lab lab, String stepId, List<CheckRef> checks, BaselineSteps baselineSteps) {
        synchronized (launchLocks.computeIfAbsent(lab.id(), id -> new Object())) {
            CheckRun active = activeByLab.get(lab.id());
            if (active != null && !active.finished()) {
                return active;
            }
            CheckRun run = new CheckRun(
                    UUID.randomUUID().toString(), lab.id(), lab.owner(), lab.lesson(), stepId, clock.instant());
            forgetSurplusRuns(lab.id());
            runs.put(run.id(), run);
            activeByLab.put(lab.id(), run);
            // Measuring starts while the run is being recorded (a class's presses waited up to 1.4 s for that write on
            // a busy 2-core host); the run writes nothing before it is recorded, and nothing at all if it never is.
            CompletableFuture<Void> recorded = new CompletableFuture<>();
            workers.submit(() -> execute(run, checks, baselineSteps, recorded));
            try {
                log.started(run);
            } catch (RuntimeException e) {
                recorded.completeExceptionally(e);
                throw e;
            }
            recorded.complete(null);
            return run;
        }
    }

    /** Tells the run how long its checks measure (a broken check counts nothing here; the loop below reports it). */
    private static void expectTimes(CheckRun run, List<CheckRef> checks) {
        Duration passing = Duration.ZERO;
        Duration longest = Duration.ZERO;
        for (CheckRef check : checks) {
            try {
                CheckSpec spec = CheckSpecParser.parse(check.file(), check.yaml(), check.line());
                passing = passing.plus(spec.passingTime());
                longest = longest.plus(spec.longestTime());
            } catch (CheckSpecException e) {
                // reported when the check runs
            }
        }
        run.expect(passing, longest);
    }

    private void execute(CheckRun run, List<CheckRef> checks, BaselineSteps baselineSteps, Future<Void> recorded) {
        expectTimes(run, checks);
        boolean allPassed = true;
        boolean anyError = false;
        for (CheckRef check : checks) {
            CheckResult result;
            try {
                CheckSpec spec = CheckSpecParser.parse(check.file(), check.yaml(), check.line());
                result = runner.run(run.owner(), run.labId(), check.id(), spec, baselineSteps, run::progress);
            } catch (CheckSpecException e) {
                // Validation keeps such lessons out of reach, so this only happens with a lesson edited mid-run.
                if (recorded(run, recorded)) {
                    finish(run, CheckRun.State.ERROR, "This check is broken in the lesson: " + e.getMessage());
                }
                return;
            } catch (RuntimeException e) {
                LOG.warnf(e, "check %s in lab %s failed to run", check.id(), run.labId());
                if (recorded(run, recorded)) {
                    finish(run, CheckRun.State.ERROR, "The check could not run: " + e.getMessage());
                }
                return;
            }
            if (!recorded(run, recorded)) {
                return;
            }
            try {
                log.resultAdded(run, run.results().size(), result);
                progress.record(run.owner(), run.lesson(), check.id(), result.passed());
            } catch (RuntimeException e) {
                LOG.warnf("check %s in lab %s: result not kept: %s", check.id(), run.labId(), e.getMessage());
                finish(run, CheckRun.State.ERROR, notKept(e));
                return;
            }
            run.add(result);
            allPassed &= result.passed();
            anyError |= result.status() == CheckResult.Status.ERROR;
        }
        finish(
                run,
                allPassed ? CheckRun.State.PASSED : anyError ? CheckRun.State.ERROR : CheckRun.State.FAILED,
                allPassed ? "passed" : "not yet");
    }

    /**
     * Waits until the run is recorded; false when it could not be (its press failed with the reason): the run then
     * ends in memory as not kept, so a press meanwhile gets it rather than a second run measuring the same lab.
     */
    private boolean recorded(CheckRun run, Future<Void> recorded) {
        try {
            recorded.get();
            return true;
        } catch (ExecutionException e) {
            run.finish(
                    CheckRun.State.ERROR,
                    notKept(e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause())));
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            run.finish(CheckRun.State.ERROR, "The check was interrupted.");
            return false;
        }
    }

    /** Ends a run and keeps its outcome; an outcome that could not be kept is not announced as one. */
    private void finish(CheckRun run, CheckRun.State state, String detail) {
        run.finish(state, detail);
        Timer.builder("tclab.check.duration")
                .description("Time from pressing Check to the verdict, slot waits included")
                .tag("outcome", state.name().toLowerCase(java.util.Locale.ROOT))
                .publishPercentileHistogram()
                .register(registry)
                .record(Duration.between(run.startedAt(), clock.instant()));
        try {
            log.finished(run);
        } catch (RuntimeException e) {
            LOG.warnf("check run %s in lab %s: outcome not kept: %s", run.id(), run.labId(), e.getMessage());
            run.finish(CheckRun.State.ERROR, notKept(e));
        }
    }

    private static String notKept(RuntimeException e) {
        return "This result could not be saved, so it does not count yet: " + e.getMessage() + " Press Check again.";
    }

    /** Re-runs watched checks that have not passed yet, in every running lab with nothing else being checked. */
    @Job
    @Scheduled(every = "${tclab.grading.watch-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void watch() {
        for (Lab lab : labs.all()) {
            if (lab.phase() != LabPhase.RUNNING
                    || active(lab.id()).filter(r -> !r.finished()).isPresent()) {
                continue;
            }
            try {
                if (!watchedLessons.watchesAny(openable(lab))) {
                    continue;
                }
                Map<String, Boolean> passed = progress.checks(lab.owner(), lab.lesson());
                LessonView view = view(lab);
                for (LessonView.StepView step : view.steps()) {
                    List<CheckRef> due = step.checks().stream()
                            .filter(c -> WatchedLessons.watched(c) && !Boolean.TRUE.equals(passed.get(c.id())))
                            .toList();
                    if (!due.isEmpty()) {
                        launch(lab, step.id(), due, BaselineSteps.of(view.steps()));
                        break;
                    }
                }
            } catch (StepNotFoundException e) {
                LOG.debugf("not watching lab %s: %s", lab.id(), e.getMessage());
            } catch (RuntimeException e) {
                LOG.warnf("not watching lab %s this round: %s", lab.id(), e.getMessage());
            }
        }
        forgetOldRuns(clock.instant().minus(Duration.ofHours(1)));
        // A check racing its lab's end may have rendered after the end was observed.
        Set<String> live = labs.all().stream().map(Lab::id).collect(Collectors.toSet());
        views.keySet().retainAll(live);
    }

    private static List<CheckRef> checksOf(LessonView view, Lab lab, String stepId) throws StepNotFoundException {
        return view.steps().stream()
                .filter(s -> s.id().equals(stepId))
                .findFirst()
                .orElseThrow(() -> new StepNotFoundException(
                        "Lesson '" + lab.lesson() + "' has no step " + Quote.of(stepId) + "."))
                .checks();
    }

    private Lesson openable(Lab lab) throws StepNotFoundException {
        try {
            return lessons.openable(lab.lesson());
        } catch (LessonNotFoundException | LessonBrokenException e) {
            throw new StepNotFoundException(e.getMessage());
        }
    }

    private LessonView view(Lab lab) throws StepNotFoundException {
        Lesson lesson = openable(lab);
        Rendered kept = views.get(lab.id());
        if (kept != null && kept.lesson() == lesson) {
            return kept.view();
        }
        LessonView view = lessons.view(lesson, lab.owner());
        views.put(lab.id(), new Rendered(lesson, view));
        return view;
    }

    private void forgetOldRuns(Instant before) {
        runs.values().removeIf(r -> r.finished() && r.startedAt().isBefore(before));
    }

    /** Keeps the lab's newest finished runs, making room for one more. */
    private void forgetSurplusRuns(String labId) {
        runs.values().stream()
                .filter(r -> r.labId().equals(labId) && r.finished())
                .sorted(java.util.Comparator.comparing(CheckRun::startedAt).reversed())
                .skip(KEPT_RUNS_PER_LAB - 1L)
                .toList()
                .forEach(r -> runs.remove(r.id()));
    }

    void onLabEnded(@Observes LabEnded ended) {
        activeByLab.remove(ended.labId());
        launchLocks.remove(ended.labId());
        views.remove(ended.labId());
        try {
            baselines.forget(ended.labId());
        } catch (RuntimeException e) {
            LOG.warnf("baselines of ended lab %s stay in the database: %s", ended.labId(), e.getMessage());
        }
    }

    @PreDestroy
    void stop() {
        workers.shutdownNow();
    }
}
