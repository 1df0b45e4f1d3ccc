package dev.tclab.runtime;

/** Receives a streamed process's output. Called from the runtime's threads; keep the work short. */
public interface StreamListener {

    /** A chunk of output (stdout and, with a TTY, stderr too), as raw bytes: it may split UTF-8 sequences. */
    void onOutput(byte[] chunk);

    /** The process ended or the stream broke; {@code reason} says which, for the learner or the log. */
    void onClosed(String reason);

    /**
     * The stream broke because the engine went away (stopped, restarting, unreachable): the process may outlive it,
     * but this stream cannot be resumed. A listener that can retry later (a terminal page) tells its user so.
     */
    default void onEngineLost(String reason) {
        onClosed(reason);
    }
}
