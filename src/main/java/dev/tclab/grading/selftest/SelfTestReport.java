package dev.tclab.grading.selftest;

import java.util.List;

/**
 * What a lesson self-test found. A lesson is {@code ok} when, in every run, each check failed before its step's
 * solution was applied and passed after; {@code broken} otherwise; {@code skipped} when this host's kernel lacks
 * something the lesson requires.
 *
 * @param reason   why the lesson is broken or skipped, in words; null when ok
 * @param passRate the share of runs in which every check behaved (failed before, passed after)
 */
public record SelfTestReport(String lesson, String verdict, String reason, int runs, double passRate,
                             List<CheckReport> checks, long millis) {

    /**
     * One check over all runs.
     *
     * @param failedBefore runs in which it did not pass before the solution (as it must)
     * @param passedAfter  runs in which it passed after the solution (as it must)
     * @param measured     what the passing runs measured, one line per run (assertion values)
     * @param problems     what went wrong, per run
     */
    public record CheckReport(String step, String check, int runs, int failedBefore, int passedAfter,
                              List<String> measured, List<String> problems) {

        public boolean ok() {
            return failedBefore == runs && passedAfter == runs && problems.isEmpty();
        }
    }

    public boolean ok() {
        return "ok".equals(verdict);
    }

    /** The report as text, for the command line and CI logs. */
    public String text() {
        StringBuilder out = new StringBuilder();
        out.append(String.format("lesson %s: %s (%d run%s, pass rate %.0f %%, %.1f s)%n", lesson, verdict.toUpperCase(),
                runs, runs == 1 ? "" : "s", passRate * 100, millis / 1000.0));
        if (reason != null) {
            out.append("  ").append(reason).append('\n');
        }
        for (CheckReport check : checks) {
            out.append(String.format("  %-4s %s / %s: failed before %d/%d, passed after %d/%d%n", check.ok() ? "ok" : "BAD",
                    check.step(), check.check(), check.failedBefore(), check.runs(), check.passedAfter(), check.runs()));
            check.measured().forEach(m -> out.append("         measured: ").append(m).append('\n'));
            check.problems().forEach(p -> out.append("         problem: ").append(p).append('\n'));
        }
        return out.toString();
    }
}
