package dev.tclab.http;

/**
 * Close codes of tclab's WebSockets (documented in docs/api.md). Codes 4000-4999 are final: the page shows the
 * last error message and does not reconnect. Others (1001, 1006, 1011...) are transient: the page reconnects.
 */
public final class SocketCloseCodes {

    /** The request names no node with a terminal, or is otherwise malformed beyond a single message. */
    public static final int BAD_REQUEST = 4400;
    /** No lab with that id is running for this learner (never was, someone else's, stopped or culled). */
    public static final int LAB_NOT_FOUND = 4404;
    /** The same terminal was opened in another tab or window, which took it over. */
    public static final int TAKEN_OVER = 4409;
    /** The terminal got far more input than its shell reads (a flood); final, as a reload starts clean. */
    public static final int FLOODING = 4413;
    /** A message above the size limit (64 KiB); transient: the page reconnects. */
    public static final int TOO_BIG = 1009;
    /** The container engine does not answer ("try again later"); transient: the page reconnects with backoff. */
    public static final int ENGINE_UNAVAILABLE = 1013;

    /** The server holds as many sockets as it allows ("try again later"); transient: the page reconnects with backoff. */
    public static final int SERVER_BUSY = 1013;
    /** The page did not read what was sent to it for a while (policy violation); transient: the page reconnects. */
    public static final int NOT_READING = 1008;

    private SocketCloseCodes() {}
}
