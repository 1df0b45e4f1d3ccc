package dev.tclab.grading.selftest;

import java.util.List;

/**
 * What a lesson self-test found. A lesson is {@code ok} when, in every run, each check failed before its step's
 * solution was applied and passed after (a check of a measure-only step, one without a solution such as recording
 * a baseline, must pass as the lab stands); {@code broken} otherwise; {@code skipped} when this host's kernel lacks
 * something the lesson requires.
 *
 * @param reason   why the lesson is broken or skipped, in words; null when ok
 * @param passRate the share of runs in which every check behaved (failed before, passed after)
 */
public record SelfTestReport(
        String lesson,
        String verdict,
        String reason,
        int runs,
        double passRate,
        List<CheckReport> checks,
        long millis) {

    /**
     * One check over all runs.
     *
     * @param measureOnly  its step has no solution: it is run once per run and must pass
     * @param failedBefore runs in which it did not pass before the solution (as it must); 0 when measure-only
     * @param passedAfter  runs in which it passed after the solution (as it must), or passed as it stands
     * @param measured     what the passing runs measured, one line per run (assertion values)
     * @param problems     what went wrong, per run
     */
    public record CheckReport(
            String step,
            String check,
            boolean measureOnly,
            int runs,
            int failedBefore,
            int passedAfter,
            List<String> measured,
            List<String> problems) {

        public boolean ok() {
            return (measureOnly || failedBefore == runs) && passedAfter == runs && problems.isEmpty();
        }
    }

    public boolean ok() {
        return "ok".equals(verdict);
    }

    /** The report as text, for the command line and CI logs. */
    public String text() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(
                "lesson %s: %s (%d run%s, pass rate %.0f %%, %.1f s)%n",
                lesson, verdict.toUpperCase(), runs, runs == 1 ? "" : "s", passRate * 100, millis / 1000.0));
        if (reason != null) {
            out.append("  ").append(reason).append('\n');
        }
        for (CheckReport check : checks) {
            String counts = check.measureOnly()
                    ? String.format("measure-only step, passed %d/%d", check.passedAfter(), check.runs())
                    : String.format(
                            "failed before %d/%d, passed after %d/%d",
                            check.failedBefore(), check.runs(), check.passedAfter(), check.runs());
            out.append(String.format(
                    "  %-4s %s / %s: %s%n", check.ok() ? "ok" : "BAD", check.step(), check.check(), counts));
            check.measured()
                    .forEach(m -> out.append("         measured: ").append(m).append('\n'));
            check.problems()
                    .forEach(p -> out.append("         problem: ").append(p).append('\n'));
        }
        return out.toString();
    }
}
