package dev.tclab.stats;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.NodeNotFoundException;
import dev.tclab.runtime.ProcessStream;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * A platform process in a lab node that everyone watching shares (a node's sampler, a probe's ping). It starts with
 * the first viewer; whenever it ends it is started again, with {@link RestartBackoff} while it keeps failing, until it
 * is stopped or its node is gone. The learner is root in the node and may kill it at any time.
 *
 * <p>Each start has a generation: what an older process reports (its output, its end) is no news. Subclasses hold
 * this object's lock for their own state that must change with the process.
 */
abstract class SharedNodeProcess {

    private static final Logger LOG = Logger.getLogger(SharedNodeProcess.class);

    private final ObjectMapper json;
    private final ScheduledExecutorService restarts;
    private final Runnable onGone;
    private final Set<StatsViewer> viewers = new CopyOnWriteArraySet<>();
    private ProcessStream process;
    private boolean stopped;
    private int failures;
    private long generation;

    SharedNodeProcess(ObjectMapper json, ScheduledExecutorService restarts, Runnable onGone) {
        this.json = json;
        this.restarts = restarts;
        this.onGone = onGone;
    }

    /**
     * Starts the process, holding this object's lock; it reports its end with {@link #processEnded} and this
     * {@code generation}.
     */
    abstract ProcessStream start(long generation) throws EngineUnavailableException, NodeNotFoundException;

    /** What the viewers are told when the node is gone, which ends this process for good. */
    abstract String goneMessage();

    /** Names the process in the log, e.g. "sampler of lab/node". */
    abstract String name();

    /** Stops what paces the process (a ticker, a flusher); called once, when it stops for good. */
    abstract void stopPacing();

    /** Under this object's lock when the process ended: why, in the words the viewers and the log get. */
    String why(String reason) {
        return reason;
    }

    /** Told (outside the lock) that the process ended and starts again after {@code delayMillis}. */
    void ended(String why, long delayMillis) {}

    /** Told (outside the lock) that the process started again. */
    void restarted() {}

    /** Adds a viewer and starts the process if it is not running; false when it was already stopped for good. */
    final synchronized boolean watch(StatsViewer viewer) throws EngineUnavailableException, NodeNotFoundException {
        if (stopped) {
            return false;
        }
        if (process == null) {
            startProcess();
        }
        viewers.add(viewer);
        return true;
    }

    /** Removes a viewer; true when nobody watches any more. */
    final synchronized boolean unwatch(StatsViewer viewer) {
        viewers.remove(viewer);
        return viewers.isEmpty();
    }

    /** Ends the process for good; idempotent. */
    final void stop() {
        ProcessStream toClose;
        synchronized (this) {
            stopped = true;
            toClose = process;
            process = null;
        }
        stopPacing();
        if (toClose != null) {
            toClose.close();
        }
    }

    /** The running process, or null. */
    final synchronized ProcessStream process() {
        return process;
    }

    /** Whether {@code which} is the generation of the latest start. */
    final synchronized boolean isCurrent(long which) {
        return which == generation;
    }

    /** The process did its work: the next failure waits the shortest backoff again. */
    final synchronized void succeeded() {
        failures = 0;
    }

    /** The process of generation {@code which} ended; unless that is old news, it starts again after a backoff. */
    final void processEnded(long which, String reason) {
        long delay;
        String why;
        synchronized (this) {
            if (stopped || which != generation) {
                return;
            }
            process = null;
            delay = RestartBackoff.millis(failures);
            failures++;
            why = why(reason);
        }
        LOG.debugf("%s ended (%s); restarting in %d ms", name(), why, delay);
        ended(why, delay);
        restarts.schedule(this::restart, delay, TimeUnit.MILLISECONDS);
    }

    /**
     * Drops the process of generation {@code which}, which misbehaved, and starts it again after a backoff (its end is
     * then no news). False when that process is no longer the current one: nothing was done.
     */
    final boolean drop(long which) {
        ProcessStream toClose;
        long delay;
        synchronized (this) {
            if (stopped || which != generation) {
                return false;
            }
            toClose = process;
            process = null;
            generation++;
            delay = RestartBackoff.millis(failures);
            failures++;
        }
        if (toClose != null) {
            toClose.close();
        }
        restarts.schedule(this::restart, delay, TimeUnit.MILLISECONDS);
        return true;
    }

    /** Sends {@code frame} as JSON to every viewer. */
    final void publish(Object frame) {
        send(write(frame));
    }

    /** Sends a frame already written to every viewer. */
    final void send(String text) {
        viewers.forEach(v -> v.send(text));
    }

    final String write(Object frame) {
        try {
            return json.writeValueAsString(frame);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("statistics frames are plain records", e);
        }
    }

    private void startProcess() throws EngineUnavailableException, NodeNotFoundException {
        process = start(++generation);
    }

    private void restart() {
        try {
            synchronized (this) {
                if (stopped || process != null) {
                    return;
                }
                startProcess();
            }
            restarted();
        } catch (NodeNotFoundException e) {
            String message = goneMessage();
            viewers.forEach(v -> v.gone(message));
            stop();
            onGone.run();
        } catch (EngineUnavailableException | RuntimeException e) {
            LOG.debugf("%s could not restart: %s", name(), e.getMessage());
            processEnded(generation, e.getMessage());
        }
    }
}
