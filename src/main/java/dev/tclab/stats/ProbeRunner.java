package dev.tclab.stats;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.runtime.NodeNotFoundException;
import dev.tclab.runtime.ProcessStream;
import dev.tclab.runtime.StreamListener;
import dev.tclab.runtime.topology.Topology;
import java.time.InstantSource;
import java.util.List;
import java.util.Locale;
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
final class ProbeRunner extends SharedNodeProcess {

    private static final Logger LOG = Logger.getLogger(ProbeRunner.class);
    /** ping's lines are under 100 bytes; anything longer is cut (see {@link LineSplitter}). */
    private static final int MAX_LINE = 512;

    private static final int MAX_REASON = 200;

    private final String labId;
    private final Topology.Probe probe;
    private final int index;
    private final LabRuntime runtime;
    private final InstantSource clock;
    private final LatencyTracker tracker;
    private final ScheduledFuture<?> flusher;
    /** The last line of the process that was not a measurement: why it ended, if it did. */
    private String lastWords;

    /**
     * @param flushes paces the frames: every {@code flushEvery} the points since the last frame go out as one frame
     */
    ProbeRunner(
            String labId,
            Topology.Probe probe,
            int index,
            LabRuntime runtime,
            ObjectMapper json,
            ScheduledExecutorService restarts,
            ScheduledExecutorService flushes,
            long flushEveryMs,
            InstantSource clock,
            Runnable onGone) {
        super(json, restarts, onGone);
        this.labId = labId;
        this.probe = probe;
        this.index = index;
        this.runtime = runtime;
        this.clock = clock;
        this.tracker = new LatencyTracker(probe.every().toMillis());
        this.flusher = flushes.scheduleAtFixedRate(this::flush, flushEveryMs, flushEveryMs, TimeUnit.MILLISECONDS);
    }

    /** The platform's ping: numeric, with timestamps (-D) and a line for every ping without a reply yet (-O). */
    static List<String> command(Topology.Probe probe) {
        String interval = String.format(Locale.ROOT, "%.3f", probe.every().toMillis() / 1000.0);
        return List.of("ping", "-n", "-D", "-O", "-i", interval, probe.to());
    }

    @Override
    String name() {
        return "probe " + probe.name() + " of " + labId;
    }

    @Override
    String goneMessage() {
        return "The lab's " + probe.from() + " node is not running any more, so its latency probe stopped.";
    }

    @Override
    void stopPacing() {
        flusher.cancel(false);
    }

    @Override
    ProcessStream start(long generation) throws EngineUnavailableException, NodeNotFoundException {
        synchronized (tracker) {
            tracker.restart();
        }
        LineSplitter lines = new LineSplitter(MAX_LINE, line -> line(generation, line));
        return runtime.stream(labId, probe.from(), command(probe), new StreamListener() {
            @Override
            public void onOutput(byte[] chunk) {
                lines.accept(chunk);
            }

            @Override
            public void onClosed(String reason) {
                processEnded(generation, reason);
            }
        });
    }

    private void line(long generation, String text) {
        PingLine line = PingLine.parse(text);
        synchronized (this) {
            if (!isCurrent(generation)) {
                return;
            }
            if (line instanceof PingLine.Other other) {
                if (!other.text().startsWith("PING ") && !other.text().isBlank()) {
                    lastWords = other.text().length() <= MAX_REASON
                            ? other.text()
                            : other.text().substring(0, MAX_REASON);
                }
                return;
            }
            if (line instanceof PingLine.Reply) {
                succeeded();
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

    /** The ping's own last words say best why it ended (no route, unknown host); the stream's reason otherwise. */
    @Override
    String why(String reason) {
        String why = lastWords != null ? lastWords : reason;
        lastWords = null;
        return why;
    }

    @Override
    void ended(String why, long delayMillis) {
        publish(new StatsFrames.ProbeNotice(
                probe.name(),
                index,
                "The latency probe '" + probe.name() + "' stopped (" + why + "); it starts again in "
                        + Math.max(1, delayMillis / 1000) + " s."));
    }
}
