package dev.tclab.runtime;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * What every runtime's {@link ProcessStream} does the same way: bounded input, the stream's process found once by its
 * marker as it starts, and a close that ends the attachment and hangs up that process (without it, a sampler loop
 * would outlive its viewers). A runtime's stream adds how it attaches, resizes, detaches and runs a command beside.
 */
public abstract class AttachedStream implements ProcessStream {

    /** Input queued for a process that does not read it; beyond this, writes are refused (see ProcessStream). */
    public static final long MAX_QUEUED_INPUT_BYTES = 1 << 20;

    private static final Logger LOG = Logger.getLogger(AttachedStream.class);

    /** The process's standard input, to attach to the exec. */
    protected final QueueInputStream stdin = new QueueInputStream(MAX_QUEUED_INPUT_BYTES);
    /** Where the stream's callbacks run: off the client's own threads. */
    protected final Executor background;

    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicBoolean reported = new AtomicBoolean();
    /** The stream's process, found as it started; empty when it ended at once (or was not found). */
    private volatile Optional<StreamProcess> process = Optional.empty();

    protected AttachedStream(Executor background) {
        this.background = background;
    }

    /** Runs a short command in the stream's container (beside the stream, not in it). */
    protected abstract ExecResult runBeside(List<String> command, Duration timeout);

    /** Resizes the exec's pseudo-terminal; a failure is only logged. */
    protected abstract void resizeTerminal(int columns, int rows);

    /** Ends the attachment to the exec (its process goes on until it is hung up). */
    protected abstract void detach();

    /** Where the stream runs, for the log. */
    protected abstract String where();

    /**
     * Finds the stream's process by the marker in its environment; called once the exec started, before any input
     * reaches it. From then on the app keeps its pid and start time itself, so nothing a learner writes in the node
     * decides what {@link #close} signals.
     */
    protected final void findProcess(String marker) {
        try {
            ExecResult found =
                    runBeside(List.of("sh", "-c", BoundedCommand.findStarted(marker)), Duration.ofSeconds(5));
            process = BoundedCommand.started(found.stdout());
            if (process.isEmpty()) {
                LOG.debugf(
                        "a stream in %s: no single process of the stream (it ended at once?): %s",
                        where(), found.stdout().strip());
            }
        } catch (RuntimeException e) {
            LOG.warnf(
                    "a stream in %s: its process was not found, so closing it will not end it: %s",
                    where(), e.getMessage());
        }
    }

    /** Whether the stream was closed by the app. */
    protected final boolean closed() {
        return closed.get();
    }

    /** True the first time only: the end of a stream is reported once, whichever callback sees it first. */
    protected final boolean firstReport() {
        return reported.compareAndSet(false, true);
    }

    @Override
    public final boolean write(byte[] input) {
        return stdin.offer(input);
    }

    @Override
    public final void resize(int columns, int rows) {
        try {
            resizeTerminal(columns, rows);
        } catch (RuntimeException e) {
            LOG.debugf("resize of a stream in %s failed: %s", where(), e.getMessage());
        }
    }

    @Override
    public final void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        stdin.close();
        detach();
        background.execute(this::hangUp);
    }

    /** Hangs up the process group (a TTY shell and its jobs), or the process alone when it leads no group. */
    private void hangUp() {
        Optional<StreamProcess> found = process;
        if (found.isEmpty()) {
            return;
        }
        try {
            runBeside(List.of("sh", "-c", BoundedCommand.hangUp(found.get())), Duration.ofSeconds(5));
        } catch (RuntimeException e) {
            // The container is gone (lab stopped): so is the process.
            LOG.debugf("could not kill stream process in %s: %s", where(), e.getMessage());
        }
    }
}
