package dev.tclab.stats;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.lab.EngineUnavailableException;
import dev.tclab.lab.LabRuntime;
import dev.tclab.lab.NodeNotFoundException;
import dev.tclab.lab.ProcessStream;
import dev.tclab.lab.StreamListener;
import dev.tclab.lab.Topology;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The one ping process of a lab's latency probe, shared by everyone watching the lab. It runs in the {@code from}
 * node's measurement sidecar (the platform's ping, in the node's network namespace), so nothing the learner installs
 * or kills in the node changes what it measures. When it ends (no route to the address, a broken stream) it is
 * restarted with backoff, like a node's sampler, and the viewers are told why.
 */
final class ProbeRunner {

    private static final Logger LOG = Logger.getLogger(ProbeRunner.class);
    /** ping's lines are under 100 bytes; anything longer is cut (see {@link LineSplitter}). */
    private static final int MAX_LINE = 512;
    private static final int MAX_REASON = 200;

    private final String labId;
    private final Topology.Probe probe;
    private final int index;
    private final LabRuntime runtime;
    private final ObjectMapper json;
    private final ScheduledExecutorService restarts;
    private final Clock clock;
    private final Runnable onGone;
    private final LatencyTracker tracker;
    private final Set<StatsViewer> viewers = new CopyOnWriteArraySet<>();
    private final ScheduledFuture<?> flusher;
    private ProcessStream process;
    private boolean stopped;
    private int failures;
    private long generation;
    /** The last line of the process that was not a measurement: why it ended, if it did. */
    private String lastWords;

    /**
     * @param flushes paces the frames: every {@code flushEvery} the points since the last frame go out as one frame
     */
    ProbeRunner(String labId, Topology.Probe probe, int index, LabRuntime runtime, ObjectMapper json,
                ScheduledExecutorService restarts, ScheduledExecutorService flushes, long flushEveryMs, Clock clock,
                Runnable onGone) {
        this.labId = labId;
        this.probe = probe;
        this.index = index;
        this.runtime = runtime;
        this.json = json;
        this.restarts = restarts;
        this.clock = clock;
        this.onGone = onGone;
        this.tracker = new LatencyTracker(probe.every().toMillis());
        this.flusher = flushes.scheduleAtFixedRate(this::flush, flushEveryMs, flushEveryMs, TimeUnit.MILLISECONDS);
    }

    /** The platform's ping: numeric, with timestamps (-D) and a line for every ping without a reply yet (-O). */
    static List<String> command(Topology.Probe probe) {
        String interval = String.format(Locale.ROOT, "%.3f", probe.every().toMillis() / 1000.0);
        return List.of("ping", "-n", "-D", "-O", "-i", interval, probe.to());
    }

    /** Adds a viewer and starts the process if it is not running; false when this runner was already stopped. */
    synchronized boolean watch(StatsViewer viewer) throws EngineUnavailableException, NodeNotFoundException {
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
    synchronized boolean unwatch(StatsViewer viewer) {
        viewers.remove(viewer);
        return viewers.isEmpty();
    }

    /** Ends the process for good; idempotent. */
    void stop() {
        ProcessStream toClose;
        synchronized (this) {
            stopped = true;
            toClose = process;
            process = null;
        }
        flusher.cancel(false);
        if (toClose != null) {
            toClose.close();
        }
    }

    private void startProcess() throws EngineUnavailableException, NodeNotFoundException {
        long mine = ++generation;
        synchronized (tracker) {
            tracker.restart();
        }
        LineSplitter lines = new LineSplitter(MAX_LINE, line -> line(mine, line));
        process = runtime.stream(labId, probe.from(), command(probe), new StreamListener() {
            @Override
            public void onOutput(byte[] chunk) {
                lines.accept(chunk);
            }

            @Override
            public void onClosed(String reason) {
                processEnded(mine, reason);
            }
        });
    }

    private void line(long which, String text) {
        PingLine line = PingLine.parse(text);
        synchronized (this) {
            if (which != generation) {
                return;
            }
            if (line instanceof PingLine.Other other) {
                if (!other.text().startsWith("PING ") && !other.text().isBlank()) {
                    lastWords = other.text().length() <= MAX_REASON ? other.text() : other.text().substring(0, MAX_REASON);
                }
                return;
            }
            if (line instanceof PingLine.Reply) {
                failures = 0;
            }
        }
        synchronized (tracker) {
            tracker.accept(line);
        }
    }

    private void flush() {
        try {
            List<StatsFrames.ProbePoint> points;
            synchronized (tracker) {
                points = tracker.take(clock.millis());
            }
            if (!points.isEmpty()) {
                publish(new StatsFrames.ProbeSample(probe.name(), index, probe.from(), probe.to(), points));
            }
        } catch (RuntimeException e) {
            // A periodic task that throws is never run again: the probe would fall silent for good.
            LOG.debugf("flush of probe %s of %s failed: %s", probe.name(), labId, e.getMessage());
        }
    }

    private void processEnded(long which, String reason) {
        long delay;
        String why;
        synchronized (this) {
            if (stopped || which != generation) {
                return;
            }
            process = null;
            delay = RestartBackoff.millis(failures);
            failures++;
            why = lastWords != null ? lastWords : reason;
            lastWords = null;
        }
        LOG.debugf("probe %s of %s ended (%s); restarting in %d ms", probe.name(), labId, why, delay);
        publish(new StatsFrames.ProbeNotice(probe.name(), index, "The latency probe '" + probe.name() + "' stopped ("
                + why + "); it starts again in " + Math.max(1, delay / 1000) + " s."));
        restarts.schedule(this::restart, delay, TimeUnit.MILLISECONDS);
    }

    private void restart() {
        try {
            synchronized (this) {
                if (stopped || process != null) {
                    return;
                }
                startProcess();
            }
        } catch (NodeNotFoundException e) {
            String message = "The lab's " + probe.from() + " node is not running any more, so its latency probe stopped.";
            viewers.forEach(v -> v.gone(message));
            stop();
            onGone.run();
        } catch (EngineUnavailableException | RuntimeException e) {
            LOG.debugf("probe %s of %s could not restart: %s", probe.name(), labId, e.getMessage());
            processEnded(generation, e.getMessage());
        }
    }

    private void publish(Object frame) {
        String text;
        try {
            text = json.writeValueAsString(frame);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("statistics frames are plain records", e);
        }
        viewers.forEach(v -> v.send(text));
    }
}
