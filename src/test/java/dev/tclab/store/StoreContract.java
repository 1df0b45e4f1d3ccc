package dev.tclab.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.grading.CheckRunLog;
import dev.tclab.grading.CheckRunView;
import dev.tclab.grading.StepProgress;
import dev.tclab.grading.TestCheckRuns;
import dev.tclab.grading.run.BaselineStore;
import dev.tclab.grading.run.CheckResult;
import dev.tclab.grading.spec.Measure;
import dev.tclab.grading.spec.Unit;
import dev.tclab.learner.SecretStore;
import dev.tclab.quiz.OptionOrder;
import dev.tclab.quiz.QuizAttempt;
import dev.tclab.quiz.QuizOrders;
import dev.tclab.quiz.QuizResults;
import dev.tclab.workshop.ProgressReader;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * What every database the app supports must do with the stores, run on H2 ({@link H2StoreTest}) and on a real
 * PostgreSQL ({@link PostgresStoreIT}). Each test uses learners and labs of its own, so the order does not matter.
 */
abstract class StoreContract {

    @Inject
    QuizResults quizzes;

    @Inject
    StepProgress progress;

    @Inject
    BaselineStore baselines;

    @Inject
    CheckRunLog runs;

    @Inject
    SecretStore secrets;

    @Inject
    ProgressReader classProgress;

    @Inject
    QuizOrders quizOrders;

    private static String fresh(String prefix) {
        return prefix + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    }

    @Test
    void shouldBeTheDatabaseStoresNotTheInMemoryOnes() {
        assertThat(quizzes).isInstanceOf(JdbcQuizResults.class);
        assertThat(progress).isInstanceOf(JdbcStepProgress.class);
        assertThat(baselines).isInstanceOf(JdbcBaselineStore.class);
        assertThat(quizOrders).isInstanceOf(JdbcQuizOrders.class);
    }

    @Test
    void shouldKeepTheOptionOrderEachLearnerAnsweredEachQuizIn() {
        String learner = fresh("l");
        quizOrders.keep(learner, "tbf-basics", "q1", new OptionOrder(List.of(2, 0, 1)));
        quizOrders.keep(learner, "tbf-basics", "q2", new OptionOrder(List.of(1, 0)));
        quizOrders.keep(learner, "other", "q1", new OptionOrder(List.of(0, 1)));
        quizOrders.keep(learner, "tbf-basics", "q1", new OptionOrder(List.of(3, 1, 0, 2)));

        assertThat(quizOrders.orders(learner, "tbf-basics"))
                .isEqualTo(Map.of("q1", new OptionOrder(List.of(3, 1, 0, 2)), "q2", new OptionOrder(List.of(1, 0))));
        assertThat(quizOrders.orders(learner, "other")).isEqualTo(Map.of("q1", new OptionOrder(List.of(0, 1))));
        assertThat(quizOrders.orders(fresh("l"), "tbf-basics")).isEmpty();
    }

    @Test
    void shouldKeepEveryQuizAttemptAndAnswerTheLatestPerQuiz() {
        String learner = fresh("l");
        quizzes.record(learner, "tbf-basics", new QuizAttempt("q1", List.of(0), false));
        quizzes.record(learner, "tbf-basics", new QuizAttempt("q2", List.of(), false));
        quizzes.record(learner, "tbf-basics", new QuizAttempt("q1", List.of(1, 3), true));
        quizzes.record(learner, "other", new QuizAttempt("q1", List.of(2), true));

        assertThat(quizzes.history(learner, "tbf-basics"))
                .containsExactly(
                        new QuizAttempt("q1", List.of(0), false),
                        new QuizAttempt("q2", List.of(), false),
                        new QuizAttempt("q1", List.of(1, 3), true));
        assertThat(quizzes.attempts(learner, "tbf-basics"))
                .isEqualTo(Map.of(
                        "q1",
                        new QuizAttempt("q1", List.of(1, 3), true),
                        "q2",
                        new QuizAttempt("q2", List.of(), false)));
        assertThat(quizzes.attempts(fresh("l"), "tbf-basics")).isEmpty();
    }

    @Test
    void shouldKeepTheLatestOutcomeOfEachCheck() {
        String learner = fresh("l");
        progress.record(learner, "tbf-basics", "shaped", false);
        progress.record(learner, "tbf-basics", "shaped", true);
        progress.record(learner, "tbf-basics", "baseline", true);
        progress.record(learner, "other", "shaped", false);

        assertThat(progress.checks(learner, "tbf-basics")).isEqualTo(Map.of("shaped", true, "baseline", true));
        assertThat(progress.checks(learner, "other")).isEqualTo(Map.of("shaped", false));
    }

    @Test
    void shouldKeepBaselinesPerLabUntilForgotten() {
        String lab = fresh("lab");
        baselines.record(lab, "up", new Measure(13900, Unit.MBIT_PER_S));
        baselines.record(lab, "up", new Measure(9.61, Unit.MBIT_PER_S));
        baselines.record(lab, "rtt", new Measure(12.5, Unit.MS));

        assertThat(baselines.all(lab))
                .isEqualTo(Map.of("up", new Measure(9.61, Unit.MBIT_PER_S), "rtt", new Measure(12.5, Unit.MS)));
        baselines.forget(lab);
        assertThat(baselines.all(lab)).isEmpty();
    }

    @Test
    void shouldReadAFinishedCheckRunBackWithBoundedRawOutput() {
        String learner = fresh("l");
        String lab = fresh("lab");
        var run = TestCheckRuns.run(lab, learner, "tbf-basics", "shape");
        runs.started(run);
        String hugeOutput = "x".repeat(100_000);
        CheckResult result = new CheckResult(
                "shaped",
                "The link is shaped",
                CheckResult.Status.ERROR,
                1,
                List.of(),
                Map.of(),
                Map.of("up", hugeOutput),
                Map.of("up", "iperf3 printed no JSON"),
                "Could not measure",
                Duration.ofMillis(2500),
                "Is iperf3 running?",
                List.of());
        runs.resultAdded(run, 0, result);
        TestCheckRuns.finish(run, "error", "not yet");
        runs.finished(run);

        CheckRunView view = runs.find(lab, run.id(), learner).orElseThrow();
        assertThat(view.state()).isEqualTo("error");
        assertThat(view.detail()).isEqualTo("not yet");
        assertThat(view.finished()).isTrue();
        assertThat(view.results()).hasSize(1);
        CheckRunView.ResultView kept = view.results().get(0);
        assertThat(kept.check()).isEqualTo("shaped");
        assertThat(kept.millis()).isEqualTo(2500);
        assertThat(kept.errors()).containsEntry("up", "iperf3 printed no JSON");
        assertThat(kept.raw().get("up"))
                .startsWith("xxxx")
                .contains("100000 characters in all")
                .hasSizeLessThanOrEqualTo(JdbcCheckRunLog.RAW_CHARS_MAX);
        assertThat(runs.find(lab, run.id(), fresh("someone-else"))).isEmpty();
        assertThat(runs.find(fresh("lab"), run.id(), learner)).isEmpty();
    }

    @Test
    void shouldAnswerTheNewestFinishedRunOfEachStepOfALearnersLab() {
        String learner = fresh("l");
        String lab = fresh("lab");
        var older = finishedRun(lab, learner, "shape", "failed");
        var newer = finishedRun(lab, learner, "shape", "passed");
        var baseline = finishedRun(lab, learner, "baseline", "passed");
        runs.started(TestCheckRuns.run(lab, learner, "tbf-basics", "shape")); // still running: not a result yet
        finishedRun(fresh("lab"), learner, "shape", "failed");
        finishedRun(lab, fresh("l"), "shape", "failed");

        Map<String, CheckRunView> last = runs.lastFinishedByStep(lab, learner);
        assertThat(last).containsOnlyKeys("shape", "baseline");
        assertThat(last.get("shape").id()).isEqualTo(newer.id()).isNotEqualTo(older.id());
        assertThat(last.get("shape").state()).isEqualTo("passed");
        assertThat(last.get("shape").results())
                .extracting(CheckRunView.ResultView::message)
                .containsExactly("passed");
        assertThat(last.get("baseline").id()).isEqualTo(baseline.id());
        assertThat(runs.lastFinishedByStep(fresh("lab"), learner)).isEmpty();
    }

    @Test
    void shouldPruneAStepsOlderRunsButNotItsAttemptsFirstPassOrLatestRun() {
        String learner = fresh("l");
        String lab = fresh("lab");
        Instant start = Instant.now().minus(10, ChronoUnit.MINUTES);
        List<dev.tclab.grading.CheckRun> shape = new ArrayList<>();
        String[] states = {"failed", "failed", "passed", "failed", "failed", "failed"};
        for (int i = 0; i < states.length; i++) {
            shape.add(finishedRun(lab, learner, "shape", states[i], start.plusSeconds(i)));
        }
        var interrupted = TestCheckRuns.run(lab, learner, "tbf-basics", "shape", start.plusSeconds(10));
        runs.started(interrupted);
        ProgressReader.StepRuns before =
                classProgress.steps(List.of(learner), List.of("tbf-basics")).get(0);
        assertThat(before.attempts()).isEqualTo(7);
        assertThat(before.firstPassedAt()).isNotNull();
        assertThat(before.lastRunId()).isEqualTo(interrupted.id());

        assertThat(runs.prune(3, start.minus(1, ChronoUnit.DAYS), 2)).isEqualTo(2); // bounded: a later call goes on
        runs.prune(3, start.minus(1, ChronoUnit.DAYS), 1000);

        assertThat(shape.subList(0, 4))
                .allSatisfy(r -> assertThat(runs.find(lab, r.id(), learner)).isEmpty());
        assertThat(shape.subList(4, 6))
                .allSatisfy(r -> assertThat(runs.find(lab, r.id(), learner)).isPresent());
        assertThat(runs.find(lab, interrupted.id(), learner)).isPresent();
        assertThat(runs.lastFinishedByStep(lab, learner).get("shape").id())
                .isEqualTo(shape.get(5).id());
        assertThat(classProgress.steps(List.of(learner), List.of("tbf-basics"))).containsExactly(before);
        assertThat(classProgress.results(before.lastRunId())).isEmpty(); // interrupted before its first result

        TestCheckRuns.finish(interrupted, "passed", "passed");
        runs.finished(interrupted);
        ProgressReader.StepRuns after =
                classProgress.steps(List.of(learner), List.of("tbf-basics")).get(0);
        assertThat(after.attempts()).isEqualTo(7);
        assertThat(after.firstPassedAt()).isEqualTo(before.firstPassedAt());
        assertThat(after.lastState()).isEqualTo("passed");
    }

    @Test
    void shouldPruneRunsPastTheRetentionAgeButEachStepsLatest() {
        String learner = fresh("l");
        String lab = fresh("lab");
        Instant longAgo = Instant.now().minus(40, ChronoUnit.DAYS);
        var oldShape = finishedRun(lab, learner, "shape", "passed", longAgo);
        var latestShape = finishedRun(lab, learner, "shape", "failed", longAgo.plusSeconds(60));
        var onlyBaseline = finishedRun(lab, learner, "baseline", "passed", longAgo);
        var recent = finishedRun(lab, learner, "rate", "failed", Instant.now().minusSeconds(60));
        finishedRun(lab, learner, "rate", "passed", Instant.now());
        List<ProgressReader.StepRuns> before = classProgress.steps(List.of(learner), List.of("tbf-basics"));

        runs.prune(10, Instant.now().minus(30, ChronoUnit.DAYS), 1000);

        assertThat(runs.find(lab, oldShape.id(), learner)).isEmpty();
        assertThat(runs.find(lab, latestShape.id(), learner)).isPresent();
        assertThat(runs.find(lab, onlyBaseline.id(), learner)).isPresent();
        assertThat(runs.find(lab, recent.id(), learner)).isPresent();
        assertThat(classProgress.steps(List.of(learner), List.of("tbf-basics")))
                .containsExactlyInAnyOrderElementsOf(before);
        ProgressReader.StepRuns shape = before.stream()
                .filter(r -> r.stepId().equals("shape"))
                .findFirst()
                .orElseThrow();
        assertThat(shape.attempts()).isEqualTo(2);
        assertThat(shape.firstPassedAt()).isNotNull();
        assertThat(shape.lastState()).isEqualTo("failed");
        assertThat(classProgress.results(shape.lastRunId()))
                .extracting(ProgressReader.CheckOutput::status)
                .containsExactly("failed");
    }

    private dev.tclab.grading.CheckRun finishedRun(String lab, String learner, String step, String state) {
        return finishedRun(lab, learner, step, state, Instant.now());
    }

    private dev.tclab.grading.CheckRun finishedRun(
            String lab, String learner, String step, String state, Instant startedAt) {
        var run = TestCheckRuns.run(lab, learner, "tbf-basics", step, startedAt);
        runs.started(run);
        runs.resultAdded(
                run,
                0,
                new CheckResult(
                        step,
                        step,
                        CheckResult.Status.valueOf(state.toUpperCase()),
                        1,
                        List.of(),
                        Map.of(),
                        Map.of(),
                        Map.of(),
                        state,
                        Duration.ofMillis(10),
                        null,
                        List.of()));
        TestCheckRuns.finish(run, state, state);
        runs.finished(run);
        return run;
    }

    @Test
    void shouldReportARunThatNeverFinishedAsInterruptedWithItsResultsSoFar() {
        String learner = fresh("l");
        String lab = fresh("lab");
        var run = TestCheckRuns.run(lab, learner, "tbf-basics", "shape");
        runs.started(run);
        runs.resultAdded(
                run,
                0,
                new CheckResult(
                        "baseline",
                        "Baseline",
                        CheckResult.Status.PASSED,
                        1,
                        List.of(),
                        Map.of(),
                        Map.of(),
                        Map.of(),
                        "measured",
                        Duration.ofMillis(900),
                        null,
                        List.of()));

        CheckRunView view = runs.find(lab, run.id(), learner).orElseThrow();
        assertThat(view.state()).isEqualTo(CheckRunView.INTERRUPTED);
        assertThat(view.finished()).isTrue();
        assertThat(view.detail()).contains("press Check again");
        assertThat(view.results()).extracting(CheckRunView.ResultView::status).containsExactly("passed");
    }

    @Test
    void shouldMakeASecretOnceAndKeepIt() {
        String name = fresh("secret");
        String first = secrets.getOrCreate(name, () -> "one");
        String second = secrets.getOrCreate(name, () -> "two");
        assertThat(first).isEqualTo("one");
        assertThat(second).isEqualTo("one");
    }

    @Test
    void shouldRecordEveryAttemptOfFiftyLearnersAnsweringTwentyQuizzesInParallel() throws Exception {
        int learners = 50;
        int quizCount = 20;
        String lesson = fresh("lesson");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < learners; i++) {
            ids.add(fresh("l"));
        }
        ExecutorService pool = Executors.newFixedThreadPool(learners);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (String learner : ids) {
                done.add(pool.submit(() -> {
                    for (int q = 0; q < quizCount; q++) {
                        quizzes.record(learner, lesson, new QuizAttempt("q" + q, List.of(q % 4), q % 2 == 0));
                        progress.record(learner, lesson, "check" + (q % 5), q % 2 == 0);
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        for (String learner : ids) {
            List<QuizAttempt> history = quizzes.history(learner, lesson);
            assertThat(history).hasSize(quizCount);
            assertThat(history)
                    .extracting(QuizAttempt::quizId)
                    .containsExactlyElementsOf(java.util.stream.IntStream.range(0, quizCount)
                            .mapToObj(q -> "q" + q)
                            .toList());
            assertThat(quizzes.attempts(learner, lesson)).hasSize(quizCount);
            assertThat(progress.checks(learner, lesson)).hasSize(5);
        }
    }
}
