package dev.tclab.terminal;

/**
 * The input one terminal socket has read that its handlers have not taken yet (issue 43, row 1: 1 GB sent at once in
 * 65 KB frames queued 7,692 frames, ~500 MB, inside websockets-next, which reads every frame as it arrives and queues
 * it behind a callback still running, such as the open's; the drop counter never saw them, and the heap ran out).
 * Counted as each frame is read, before websockets-next queues it ({@link #read}); above the budget the socket stops
 * reading, so TCP holds the sender back, and reads again once the handlers have taken half of it ({@link #taken}).
 * A socket closed for flooding never reads again ({@link #stop}).
 */
final class InputInFlight {

    /** Turns the socket's reading off and on. */
    interface Reading {
        void pause();

        void resume();
    }

    private final Reading reading;
    private final long budget;
    private long bytes;
    private boolean paused;
    private boolean started;
    private boolean stopped;

    /** Starts paused: nothing is read until {@link #start} (once every frame read is counted). */
    InputInFlight(Reading reading, long budget) {
        this.reading = reading;
        this.budget = budget;
        this.paused = true;
        reading.pause();
    }

    /** Frames read from now on are counted: the socket reads while the budget allows. */
    synchronized void start() {
        started = true;
        settle();
    }

    /** A data frame of {@code length} bytes was read (on the socket's event loop, before anything queues it). */
    synchronized void read(long length) {
        bytes += length;
        settle();
    }

    /** A handler took a message of {@code length} bytes off the queue. */
    synchronized void taken(long length) {
        bytes = Math.max(0, bytes - length);
        settle();
    }

    /** The socket is being closed for flooding: it reads nothing more. */
    synchronized void stop() {
        stopped = true;
        settle();
    }

    /** Bytes read and not taken yet. */
    synchronized long bytes() {
        return bytes;
    }

    /** Whether the socket reads now. */
    synchronized boolean reading() {
        return !paused;
    }

    private void settle() {
        boolean pause = !started || stopped || bytes > budget || paused && bytes > budget / 2;
        if (pause == paused) {
            return;
        }
        paused = pause;
        if (pause) {
            reading.pause();
        } else {
            reading.resume();
        }
    }
}
