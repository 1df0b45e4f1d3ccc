package dev.tclab.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

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
    /**
     * The environment variable that marks a long-running stream's process (a terminal's shell, a sampler), so the app
     * finds it once, as it starts, and keeps its pid and start time itself (see {@link #findStarted}).
     */
    public static final String STREAM_MARKER = "TCLAB_STREAM";

    private BoundedCommand() {}

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

    /**
     * A script printing {@code "<pid> <start>"} for each process an exec started (its parent is outside the
     * container: 0) whose environment, as it was started, holds {@code TCLAB_STREAM=<marker>}; {@code start} is its
     * start time in clock ticks since boot, from the kernel. It looks for up to 2 s, since the exec may not run yet.
     * Only the app starts execs, so a learner's own processes never match, whatever they put in their environment.
     */
    public static String findStarted(String marker) {
        return "i=0; while [ $i -lt 40 ]; do f=$(for p in /proc/[0-9]*; do"
                + " grep -qsaxz '" + STREAM_MARKER + "=" + marker + "' $p/environ || continue;"
                + " s=$(cat $p/stat 2>/dev/null) || continue; s=${s##*) }; set -- $s;"
                + " [ \"$2\" = 0 ] && echo \"${p#/proc/} ${20}\"; done);"
                + " [ -n \"$f\" ] && { echo \"$f\"; exit 0; }; i=$((i+1)); sleep 0.05; done; exit 1";
    }

    /**
     * The one process {@link #findStarted} printed, or empty when it printed none (the process ended at once) or
     * several (someone copied the marker into another exec's memory: then no process is trusted to be the stream's).
     */
    public static Optional<StreamProcess> started(String output) {
        List<String> lines = output.lines().filter(l -> !l.isBlank()).toList();
        if (lines.size() != 1) {
            return Optional.empty();
        }
        String[] words = lines.get(0).trim().split(" ");
        if (words.length != 2) {
            return Optional.empty();
        }
        try {
            return Optional.of(new StreamProcess(Long.parseLong(words[0]), Long.parseLong(words[1])));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * Hangs up the stream's process group (a TTY shell and its jobs; an exec leads its own session and group), or
     * the process alone, then kills the process if it is still there after half a second. Each signal goes only while
     * the pid is still that process (parent 0, same start time): a process that ended, or a pid taken again by
     * another process, is left alone.
     */
    public static String hangUp(StreamProcess process) {
        long pid = process.pid();
        return "same() { s=$(cat /proc/" + pid + "/stat 2>/dev/null) || return 1; s=${s##*) }; set -- $s;"
                + " [ \"$2\" = 0 ] && [ \"${20}\" = " + process.startTicks() + " ]; };"
                + " if same; then kill -HUP -- -" + pid + " 2>/dev/null || kill -HUP " + pid + ";"
                + " sleep 0.5; if same; then kill -KILL " + pid + "; fi; fi; true";
    }
}
