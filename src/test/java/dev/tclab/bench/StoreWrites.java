package dev.tclab.bench;

import dev.tclab.grading.CheckRunLog;
import dev.tclab.grading.StepProgress;
import dev.tclab.grading.TestCheckRuns;
import dev.tclab.grading.run.CheckResult;
import dev.tclab.quiz.QuizAttempt;
import dev.tclab.quiz.QuizResults;
import dev.tclab.tc.Fixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BiConsumer;

/**
 * The write workload of the store benchmarks: 50 learners at once, each answering a quiz and then keeping a check
 * result (the result row with its raw iperf3 output, and the step's progress), 40 times, with 10 ms between two
 * writes of a learner. Times each write as the app's request or check thread sees it.
 */
final class StoreWrites {

    static final int LEARNERS = 50;
    static final int ROUNDS = Integer.getInteger("bench.rounds", 40);
    static final int WARMUP_ROUNDS = 5;
    private static final long PAUSE_MS = 10;

    /** Keeps one check result of a learner's run, the way StepChecks does after each check. */
    interface ResultWriter {
        void write(String learner, String lesson, int position, CheckResult result);
    }

    record Figures(Stats quizAnswer, Stats checkResult) {}

    private StoreWrites() {}

    /** A check writer over the app's stores: the result in the run log, then the step progress. */
    static ResultWriter appWriter(CheckRunLog log, StepProgress progress) {
        Map<String, dev.tclab.grading.CheckRun> runs = new java.util.concurrent.ConcurrentHashMap<>();
        return (learner, lesson, position, result) -> {
            var run = runs.computeIfAbsent(learner, l -> {
                var r = TestCheckRuns.run("lab-" + l, l, lesson, "shape");
                log.started(r);
                return r;
            });
            log.resultAdded(run, position, result);
            progress.record(learner, lesson, result.checkId(), result.passed());
        };
    }

    static Figures run(QuizResults quizzes, ResultWriter results) throws Exception {
        String lesson = "bench-" + UUID.randomUUID().toString().substring(0, 8);
        CheckResult result = new CheckResult(
                "shaped",
                "The uplink is shaped",
                CheckResult.Status.PASSED,
                1,
                List.of(),
                Map.of(),
                Map.of("up", Fixtures.read("iperf3/iperf3-tcp-tbf10.json")),
                Map.of(),
                "measured 9.61 Mbit/s",
                Duration.ofMillis(9000),
                null,
                List.of());
        List<Double> answers = Collections.synchronizedList(new ArrayList<>());
        List<Double> checks = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(LEARNERS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int l = 0; l < LEARNERS; l++) {
                String learner =
                        "lbench" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
                done.add(pool.submit(() -> {
                    for (int round = 0; round < ROUNDS + WARMUP_ROUNDS; round++) {
                        int r = round;
                        BiConsumer<List<Double>, Runnable> timed = (samples, write) -> {
                            long start = System.nanoTime();
                            write.run();
                            if (r >= WARMUP_ROUNDS) {
                                samples.add((System.nanoTime() - start) / 1e6);
                            }
                        };
                        timed.accept(
                                answers,
                                () -> quizzes.record(
                                        learner, lesson, new QuizAttempt("q" + (r % 20), List.of(r % 3), r % 2 == 0)));
                        Thread.sleep(PAUSE_MS);
                        timed.accept(checks, () -> results.write(learner, lesson, r, result));
                        Thread.sleep(PAUSE_MS);
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
        return new Figures(Stats.of(answers), Stats.of(checks));
    }

    static void report(String database, Figures figures) throws IOException {
        String report = "| " + database + " | samples | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|\n"
                + row("quiz answer", figures.quizAnswer()) + row("check result", figures.checkResult());
        Path out = Path.of(
                "target/benchmarks/store-writes-" + database.toLowerCase().replace(' ', '-') + ".md");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);
        System.out.println(report);
    }

    private static String row(String what, Stats s) {
        return String.format("| %s | %d | %.3f | %.3f | %.3f |%n", what, s.n(), s.p50(), s.p99(), s.max());
    }
}
