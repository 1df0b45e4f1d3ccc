package dev.tclab.terminal;

/** Where a shell's output goes while a page is attached: in the app, a WebSocket. Must not block. */
interface TerminalSink {

    /** Raw terminal bytes; may split UTF-8 sequences. */
    void output(byte[] chunk);

    /** The shell ended (exited, killed, or its lab was removed); {@code reason} is for the learner. */
    void ended(String reason);

    /** Another page took this shell over; this one must let go for good. */
    void takenOver();

    /** The shell's stream broke with the engine; {@code message} is for the learner, who may reconnect later. */
    void engineLost(String message);
}
