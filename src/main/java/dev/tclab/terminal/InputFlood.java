package dev.tclab.terminal;

import java.time.Duration;

/**
 * Input one terminal socket sent that its shell did not take (issue 25, row 3: 1 GB in 65 KB frames was dropped
 * correctly, but reading and dropping it cost a core, 1.46 GB of allocations and stalled every request for seconds).
 * The socket is closed once its dropped input passes a bound within a window, and reads nothing more from then on
 * ({@link InputInFlight#stop}); until then it reads at most {@code tclab.terminal.max-input-in-flight} ahead of what
 * its handler took (issue 43, row 1).
 */
final class InputFlood {

    private final long maxBytes;
    private final long windowNanos;
    private long windowStart;
    private long dropped;
    private volatile boolean over;

    InputFlood(long maxBytes, Duration window, long now) {
        this.maxBytes = maxBytes;
        this.windowNanos = window.toNanos();
        this.windowStart = now;
    }

    /**
     * Counts {@code bytes} dropped at {@code now} (System.nanoTime); true, once, when the window passes the bound: the
     * socket is to be closed, and is {@link #over()} from then on.
     */
    synchronized boolean dropped(int bytes, long now) {
        if (over) {
            return false;
        }
        if (now - windowStart > windowNanos) {
            windowStart = now;
            dropped = 0;
        }
        dropped += bytes;
        over = dropped > maxBytes;
        return over;
    }

    /** The socket flooded and is being closed. */
    boolean over() {
        return over;
    }
}
