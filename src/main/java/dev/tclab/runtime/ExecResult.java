package dev.tclab.runtime;

/**
 * The outcome of a command run in a lab node. {@code exitCode} is -1 when it timed out. {@code truncated} says the
 * command printed more than the runtime keeps (about 1 MiB per stream): the output holds its beginning only.
 */
public record ExecResult(int exitCode, String stdout, String stderr, boolean timedOut, boolean truncated) {

    public ExecResult(int exitCode, String stdout, String stderr, boolean timedOut) {
        this(exitCode, stdout, stderr, timedOut, false);
    }

    public boolean ok() {
        return exitCode == 0 && !timedOut;
    }
}
