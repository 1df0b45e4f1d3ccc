package dev.tclab.lab;

/** The outcome of a command run in a lab node. {@code exitCode} is -1 when it timed out. */
public record ExecResult(int exitCode, String stdout, String stderr, boolean timedOut) {

    public boolean ok() {
        return exitCode == 0 && !timedOut;
    }
}
