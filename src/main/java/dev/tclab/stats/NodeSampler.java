package dev.tclab.stats;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.runtime.NodeNotFoundException;
import dev.tclab.runtime.ProcessStream;
import dev.tclab.runtime.StreamListener;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The one sampler process of a lab node, shared by everyone watching it. The learner is root in the node and may
 * kill it: it is then restarted (with backoff if it keeps dying) and the viewers are told.
 */
final class NodeSampler extends SharedNodeProcess {

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
    private final BacklogGuard backlogs;
    private final StatsHistory history;
    private final SampleParser parser;
    private final ScheduledFuture<?> ticker;
    private boolean roundPending;

    /**
     * @param interfaces the interfaces to sample (lab.yml's {@code stats}); empty means all
     * @param ticks      paces every sampler: each tick asks the process for one round
     */
    NodeSampler(
            String labId,
            String node,
            List<String> interfaces,
            LabRuntime runtime,
            Duration interval,
            ObjectMapper json,
            ScheduledExecutorService restarts,
            ScheduledExecutorService ticks,
            BacklogGuard backlogs,
            StatsHistory history,
            Runnable onGone) {
        super(json, restarts, onGone);
        this.labId = labId;
        this.node = node;
        this.runtime = runtime;
        this.command = SamplerScript.command();
        this.backlogs = backlogs;
        this.history = history;
        this.parser = new SampleParser(node, interfaces);
        this.ticker = ticks.scheduleAtFixedRate(this::tick, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    String name() {
        return "sampler of " + labId + "/" + node;
    }

    @Override
    String goneMessage() {
        return "The lab's " + node + " node is not running any more, so its statistics stopped.";
    }

    @Override
    void stopPacing() {
        ticker.cancel(false);
    }

    @Override
    void restarted() {
        publish(new StatsFrames.Notice(node, "sampler restarted"));
    }

    /**
     * Asks the process for a round, naming the interfaces to detail, unless the last round has not arrived yet: a
     * slow node must not pile up work.
     */
    private void tick() {
        ProcessStream target;
        synchronized (this) {
            target = process();
            if (target == null || roundPending) {
                return;
            }
            roundPending = true;
        }
        try {
            target.write((String.join(" ", parser.devicesToDetail()) + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            // A periodic task that throws is never run again: this sampler would fall silent for good.
            LOG.debugf("tick for the sampler of %s/%s failed: %s", labId, node, e.getMessage());
        }
    }

    @Override
    ProcessStream start(long generation) throws EngineUnavailableException, NodeNotFoundException {
        roundPending = false;
        SampleAssembler assembler =
                new SampleAssembler(raw -> publishSample(parse(raw)), MAX_ROUND_BYTES, () -> overflowed(generation));
        return runtime.stream(labId, node, command, new StreamListener() {
            @Override
            public void onOutput(byte[] chunk) {
                assembler.accept(chunk);
            }

            @Override
            public void onClosed(String reason) {
                processEnded(generation, reason);
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
        backlogs.report(labId, node, rootBacklogs, this::publish);
        synchronized (this) {
            succeeded();
            roundPending = false;
        }
        return write(sample);
    }

    /** A round grew past its cap: the process is dropped (with what it sent) and restarted with backoff. */
    private void overflowed(long generation) {
        if (!drop(generation)) {
            return;
        }
        LOG.infof("sampler of %s/%s sent more than %d bytes in one round; restarting it", labId, node, MAX_ROUND_BYTES);
        publish(new StatsFrames.Notice(
                node,
                "The statistics of " + node + " sent more than "
                        + (MAX_ROUND_BYTES >> 20)
                        + " MiB in one round (output written to the sampler, or a qdisc tree too big"
                        + " to show), so the sampler was restarted."));
    }

    /** A sample goes to the viewers and into the lab's history, for pages that connect later. */
    private void publishSample(String frame) {
        history.record(labId, frame);
        send(frame);
    }
}
