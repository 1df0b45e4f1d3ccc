package dev.tclab.lab;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * How every runtime bounds a command it runs in a lab: a timeout that also kills the command, a deadline of the
 * app's own past it, a marker to find and kill all its processes, and a cap on the output kept. A learner is root in
 * a lab node and may replace {@code timeout} by a script that never ends, or make a command print without end.
 */
public final class BoundedCommand {

    /** Exit code of coreutils' timeout(1) when it stopped the command. */
    public static final int TIMEOUT_EXIT = 124;
    /** Output kept per stream; the rest is read and dropped, so the command is never blocked on a full pipe. */
    public static final int MAX_CAPTURE_BYTES = 1 << 20;
    /** How long past the timeout (and timeout(1)'s 2 s kill delay) the app waits before it kills the command itself. */
    public static final Duration DEADLINE_MARGIN = Duration.ofSeconds(4);
    /** The environment variable that marks every process of one exec, so the app can find and kill them all. */
    public static final String MARKER = "TCLAB_EXEC";

    private BoundedCommand() {
    }

    /** The timeout in whole seconds, at least one. */
    public static long seconds(Duration timeout) {
        return Math.max(1, (timeout.toMillis() + 999) / 1000);
    }

    /** The command under timeout(1), which kills it inside the container after {@code seconds}. */
    public static List<String> withTimeout(List<String> command, long seconds) {
        List<String> wrapped = new ArrayList<>(List.of("timeout", "-k", "2", Long.toString(seconds)));
        wrapped.addAll(command);
        return wrapped;
    }

    /** When the app stops waiting for a command given {@code seconds}, in milliseconds. */
    public static long deadlineMillis(long seconds) {
        return seconds * 1000 + DEADLINE_MARGIN.toMillis();
    }

    /** A script that SIGKILLs every process carrying the marker (the command and its children). */
    public static String killMarked(String marker) {
        return "for p in /proc/[0-9]*; do grep -qsa '" + MARKER + "=" + marker + "' $p/environ"
                + " && kill -KILL ${p#/proc/} 2>/dev/null; done; true";
    }

    /** Runs the command recording its pid in {@code pidFile}, so {@link #hangUp} can signal exactly it. */
    public static List<String> recordingPid(String pidFile, List<String> command) {
        List<String> wrapped = new ArrayList<>(List.of("sh", "-c", "echo $$ > " + pidFile + "; exec \"$@\"", "sh"));
        wrapped.addAll(command);
        return wrapped;
    }

    /** Hangs up the process group of the pid in {@code pidFile} (a TTY shell and its jobs), or the process alone. */
    public static String hangUp(String pidFile) {
        return "p=$(cat " + pidFile + " 2>/dev/null) && { kill -HUP -- -$p 2>/dev/null || kill -HUP $p; "
                + "sleep 0.5; if kill -0 $p 2>/dev/null; then kill -KILL $p; fi; }; rm -f " + pidFile;
    }
}
