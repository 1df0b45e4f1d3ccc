package dev.tclab.grading;

import dev.tclab.grading.evaluate.AssertionResult;
import dev.tclab.grading.evaluate.FlowRoute;
import dev.tclab.grading.run.CheckResult;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A check run as the API shows it.
 *
 * @param state   queued, waiting_for_slot, measuring, passed, failed, error, or interrupted (the server stopped while
 *                the run went on; read back after a restart)
 * @param detail  what is happening now, or the outcome in words
 * @param results one per check of the step, in order, as they finish
 * @param measuring how long a live run's checks send traffic and ping; null for a run read back, or one that only
 *                  reads the lab's configuration
 */
public record CheckRunView(
        String id,
        String step,
        String state,
        String detail,
        boolean finished,
        List<ResultView> results,
        MeasuringTime measuring) {

    /** A run as kept, read back: how long it measured is not kept. */
    public CheckRunView(
            String id, String step, String state, String detail, boolean finished, List<ResultView> results) {
        this(id, step, state, detail, finished, results, null);
    }

    /**
     * How long a live run's checks send traffic and ping: {@code seconds} when they pass at once, at most {@code
     * atMostSeconds} when failing samples are measured again (rounded up; docs/api.md).
     */
    public record MeasuringTime(long seconds, long atMostSeconds) {

        /** Null when the checks measure nothing that takes time (they read the configuration only). */
        static MeasuringTime of(Duration passing, Duration longest) {
            return longest.isZero() ? null : new MeasuringTime(roundUp(passing), roundUp(longest));
        }

        private static long roundUp(Duration d) {
            return (d.toMillis() + 999) / 1000;
        }
    }

    /**
     * One check's outcome. {@code raw} holds the raw output of measurements that could not be read, so the learner
     * still sees what the lab printed. {@code flows} says where each graded flow went (null in results kept before it
     * existed).
     */
    public record ResultView(
            String check,
            String title,
            String status,
            String message,
            String hint,
            int attempts,
            long millis,
            List<AssertionResult> assertions,
            Map<String, String> errors,
            Map<String, String> raw,
            List<FlowRoute> flows) {

        public static ResultView of(CheckResult r) {
            Map<String, String> unreadable = new java.util.TreeMap<>(r.raw());
            unreadable.keySet().retainAll(r.errors().keySet());
            return new ResultView(
                    r.checkId(),
                    r.title(),
                    r.status().name().toLowerCase(Locale.ROOT),
                    r.message(),
                    r.passed() ? null : r.hint(),
                    r.attempts(),
                    r.duration().toMillis(),
                    r.assertions(),
                    r.errors(),
                    unreadable,
                    r.flows());
        }
    }

    /** The state of a run the server stopped during, read back after a restart. */
    public static final String INTERRUPTED = "interrupted";

    public static CheckRunView of(CheckRun run) {
        return new CheckRunView(
                run.id(),
                run.stepId(),
                run.state().name().toLowerCase(Locale.ROOT),
                run.detail(),
                run.finished(),
                run.results().stream().map(ResultView::of).toList(),
                MeasuringTime.of(run.passingTime(), run.longestTime()));
    }
}
