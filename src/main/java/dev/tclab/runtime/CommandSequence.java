package dev.tclab.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Several commands run one after another in one exec, each under its own timeout, with each one's output and exit code
 * told apart: a runtime whose exec is costly (a Docker exec costs the engine tens of milliseconds of CPU) runs a
 * check's reads right after its load in the exec of the load. The separators carry a random marker made per sequence,
 * so no output of a command can forge one.
 */
public final class CommandSequence {

    /** One command and its timeout, as {@link LabRuntime#exec} takes them. */
    public record Step(List<String> command, Duration timeout) {}

    private final List<Step> steps;
    private final String marker = "@@tclab-" + UUID.randomUUID();

    public CommandSequence(List<Step> steps) {
        this.steps = List.copyOf(steps);
    }

    /**
     * Every step in one {@link LabRuntime#exec} of {@code runtime} (a single step as it is), for a runtime whose
     * {@link LabRuntime#execAll} must cost one exec, not one a step.
     */
    public static List<ExecResult> inOneExec(LabRuntime runtime, String labId, String node, List<Step> steps)
            throws EngineUnavailableException, NodeNotFoundException {
        if (steps.size() == 1) {
            return List.of(runtime.exec(
                    labId, node, steps.get(0).command(), steps.get(0).timeout()));
        }
        CommandSequence sequence = new CommandSequence(steps);
        return sequence.split(runtime.exec(labId, node, sequence.command(), sequence.timeout()));
    }

    /** The one command that runs every step in order, whatever the previous ones did. */
    public List<String> command() {
        StringBuilder script = new StringBuilder("m=").append(quote(marker)).append('\n');
        for (Step step : steps) {
            for (String arg : BoundedCommand.withTimeout(step.command(), BoundedCommand.seconds(step.timeout()))) {
                script.append(quote(arg)).append(' ');
            }
            script.append("</dev/null; s=$?; printf '\\n%s %s\\n' \"$m\" \"$s\"; printf '\\n%s\\n' \"$m\" >&2\n");
        }
        return List.of("sh", "-c", script.toString());
    }

    /** Long enough for every step to run to its own timeout and be killed. */
    public Duration timeout() {
        long seconds = 1;
        for (Step step : steps) {
            seconds += BoundedCommand.seconds(step.timeout()) + 2;
        }
        return Duration.ofSeconds(seconds);
    }

    /**
     * Each step's result, in order, from the result of {@link #command()}. A step whose separator is missing (the
     * whole timed out, or its output was cut) reads as timed out or cut, as the whole did, and so do the steps after.
     */
    public List<ExecResult> split(ExecResult whole) {
        List<ExecResult> results = new ArrayList<>();
        int out = 0;
        int err = 0;
        boolean reached = true;
        for (int i = 0; i < steps.size(); i++) {
            int outEnd = reached ? whole.stdout().indexOf("\n" + marker + " ", out) : -1;
            int codeEnd = outEnd < 0 ? -1 : whole.stdout().indexOf('\n', outEnd + marker.length() + 2);
            if (codeEnd < 0) {
                reached = false;
                results.add(new ExecResult(
                        -1,
                        whole.stdout().substring(Math.min(out, whole.stdout().length())),
                        whole.stderr().substring(Math.min(err, whole.stderr().length())),
                        whole.timedOut(),
                        whole.truncated()));
                out = whole.stdout().length();
                err = whole.stderr().length();
                continue;
            }
            int code = Integer.parseInt(whole.stdout()
                    .substring(outEnd + marker.length() + 2, codeEnd)
                    .trim());
            int errEnd = whole.stderr().indexOf("\n" + marker + "\n", err);
            String stderr = errEnd < 0
                    ? whole.stderr().substring(Math.min(err, whole.stderr().length()))
                    : whole.stderr().substring(err, errEnd);
            boolean timedOut = code == BoundedCommand.TIMEOUT_EXIT;
            results.add(new ExecResult(timedOut ? -1 : code, whole.stdout().substring(out, outEnd), stderr, timedOut));
            out = codeEnd + 1;
            err = errEnd < 0 ? whole.stderr().length() : errEnd + marker.length() + 2;
        }
        return results;
    }

    private static String quote(String arg) {
        return "'" + arg.replace("'", "'\\''") + "'";
    }
}
