package dev.tclab.stats;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.lab.EngineUnavailableException;
import dev.tclab.lab.LabRuntime;
import dev.tclab.lab.NodeNotFoundException;
import dev.tclab.lab.ProcessStream;
import dev.tclab.lab.StreamListener;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The one sampler process of a lab node, shared by everyone watching it. The learner is root in the node and may
 * kill it: it is then restarted (with backoff if it keeps dying) and the viewers are told.
 */
final class NodeSampler {

    private static final Logger LOG = Logger.getLogger(NodeSampler.class);
    /**
     * Most output one round may produce. A round is a few KiB (thousands of qdiscs still fit); more means the learner
     * writes to the sampler's stdout or made a qdisc tree no page can show, and the sampler is restarted.
     */
    static final long MAX_ROUND_BYTES = 2L << 20;

    private final String labId;
    private final String node;
    private final LabRuntime runtime;
    private final List<String> command;
    private final ObjectMapper json;
    private final ScheduledExecutorService restarts;
    private final Runnable onGone;
    private final BacklogGuard backlogs;
    private final StatsHistory history;
    private final SampleParser parser;
    private final Set<StatsViewer> viewers = new CopyOnWriteArraySet<>();
    private final ScheduledFuture<?> ticker;
    private ProcessStream process;
    private boolean roundPending;
    private boolean stopped;
    private int failures;
    private long generation;

    /**
     * @param interfaces the interfaces to sample (lab.yml's {@code stats}); empty means all
     * @param ticks      paces every sampler: each tick asks the process for one round
     */
    NodeSampler(String labId, String node, List<String> interfaces, LabRuntime runtime, Duration interval,
                ObjectMapper json, ScheduledExecutorService restarts, ScheduledExecutorService ticks,
                BacklogGuard backlogs, StatsHistory history, Runnable onGone) {
        this.labId = labId;
        this.node = node;
        this.runtime = runtime;
        this.command = SamplerScript.command();
        this.json = json;
        this.restarts = restarts;
        this.onGone = onGone;
        this.backlogs = backlogs;
        this.history = history;
        this.parser = new SampleParser(node, interfaces);
        this.ticker = ticks.scheduleAtFixedRate(this::tick, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Adds a viewer and starts the process if it is not running; false when this sampler was already stopped. */
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
        ticker.cancel(false);
        if (toClose != null) {
            toClose.close();
        }
    }

    /**
     * Asks the process for a round, naming the interfaces to detail, unless the last round has not arrived yet: a
     * slow node must not pile up work.
     */
    private void tick() {
        ProcessStream target;
        synchronized (this) {
            if (process == null || roundPending) {
                return;
            }
            roundPending = true;
            target = process;
        }
        try {
            target.write((String.join(" ", parser.devicesToDetail()) + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            // A periodic task that throws is never run again: this sampler would fall silent for good.
            LOG.debugf("tick for the sampler of %s/%s failed: %s", labId, node, e.getMessage());
        }
    }

    private void startProcess() throws EngineUnavailableException, NodeNotFoundException {
        long mine = ++generation;
        roundPending = false;
        SampleAssembler assembler = new SampleAssembler(raw -> publishSample(parse(raw)), MAX_ROUND_BYTES,
                () -> overflowed(mine));
        process = runtime.stream(labId, node, command, new StreamListener() {
            @Override
            public void onOutput(byte[] chunk) {
                assembler.accept(chunk);
            }

            @Override
            public void onClosed(String reason) {
                processEnded(mine, reason);
            }
        });
    }

    private String parse(RawSample raw) {
        StatsFrames.NodeSample sample;
        Map<String, Long> rootBacklogs;
        synchronized (parser) {
            sample = parser.parse(raw);
            rootBacklogs = parser.rootBacklogs();
        }
        backlogs.report(labId, node, rootBacklogs, reset -> publish(write(reset)));
        synchronized (this) {
            failures = 0;
            roundPending = false;
        }
        return write(sample);
    }

    /** A round grew past its cap: the process is dropped (with what it sent) and restarted with backoff. */
    private void overflowed(long which) {
        ProcessStream toClose;
        long delay;
        synchronized (this) {
            if (stopped || which != generation) {
                return;
            }
            toClose = process;
            process = null;
            generation++; // the old process's end is no news: its restart is scheduled here
            delay = RestartBackoff.millis(failures);
            failures++;
        }
        LOG.infof("sampler of %s/%s sent more than %d bytes in one round; restarting it", labId, node, MAX_ROUND_BYTES);
        publish(write(new StatsFrames.Notice(node, "The statistics of " + node + " sent more than "
                + (MAX_ROUND_BYTES >> 20) + " MiB in one round (output written to the sampler, or a qdisc tree too big"
                + " to show), so the sampler was restarted.")));
        if (toClose != null) {
            toClose.close();
        }
        restarts.schedule(this::restart, delay, TimeUnit.MILLISECONDS);
    }

    private void processEnded(long which, String reason) {
        long delay;
        synchronized (this) {
            if (stopped || which != generation) {
                return;
            }
            process = null;
            delay = RestartBackoff.millis(failures);
            failures++;
        }
        LOG.debugf("sampler of %s/%s ended (%s); restarting in %d ms", labId, node, reason, delay);
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
            publish(write(new StatsFrames.Notice(node, "sampler restarted")));
        } catch (NodeNotFoundException e) {
            String message = "The lab's " + node + " node is not running any more, so its statistics stopped.";
            viewers.forEach(v -> v.gone(message));
            stop();
            onGone.run();
        } catch (EngineUnavailableException | RuntimeException e) {
            LOG.debugf("sampler of %s/%s could not restart: %s", labId, node, e.getMessage());
            processEnded(generation, e.getMessage());
        }
    }

    /** A sample goes to the viewers and into the lab's history, for pages that connect later. */
    private void publishSample(String frame) {
        history.record(labId, frame);
        publish(frame);
    }

    private void publish(String frame) {
        viewers.forEach(v -> v.send(frame));
    }

    private String write(Object frame) {
        try {
            return json.writeValueAsString(frame);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("statistics frames are plain records", e);
        }
    }
}
