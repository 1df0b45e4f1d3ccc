package dev.tclab.grading;

import dev.tclab.grading.evaluate.AssertionResult;
import dev.tclab.grading.evaluate.FlowRoute;
import dev.tclab.grading.run.CheckResult;
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
 */
public record CheckRunView(
        String id, String step, String state, String detail, boolean finished, List<ResultView> results) {

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
                run.results().stream().map(ResultView::of).toList());
    }
}
