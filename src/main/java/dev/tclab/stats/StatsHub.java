package dev.tclab.stats;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.common.WorkerThreads;
import dev.tclab.config.TclabConfig;
import dev.tclab.cpu.LabCpuNotice;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.runtime.NodeNotFoundException;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The samplers of this server: at most one per lab node, running while somebody watches it. Calls block (they start
 * engine streams): never call them on the event loop.
 */
@ApplicationScoped
public class StatsHub {

    static final Duration MIN_INTERVAL = Duration.ofMillis(100);
    static final Duration MAX_INTERVAL = Duration.ofSeconds(60);

    private record Key(String labId, String node) {}

    private final LabRuntime runtime;
    private final ObjectMapper json;
    private final Duration interval;
    private final BacklogGuard backlogs;
    private final StatsHistory history;
    private final SharedProcesses<Key> samplers = new SharedProcesses<>();
    private final ScheduledExecutorService restarts =
            Executors.newSingleThreadScheduledExecutor(WorkerThreads.named("tclab-stats-restart"));
    // Separate from restarts, which block on the engine: a tick only queues a line for a sampler's stdin.
    private final ScheduledExecutorService ticks =
            Executors.newSingleThreadScheduledExecutor(WorkerThreads.named("tclab-stats-tick"));

    public StatsHub(
            LabRuntime runtime, ObjectMapper json, TclabConfig config, BacklogGuard backlogs, StatsHistory history) {
        this.runtime = runtime;
        this.history = history;
        this.backlogs = backlogs;
        this.json = json;
        this.interval = config.stats().interval();
        if (interval.compareTo(MIN_INTERVAL) < 0 || interval.compareTo(MAX_INTERVAL) > 0) {
            throw new IllegalArgumentException("tclab.stats.interval is " + interval + "; it must be between 100ms "
                    + "(10 samples a second) and 60s.");
        }
    }

    /**
     * Starts delivering the node's samples to {@code viewer}, starting its sampler if nobody watched it yet.
     *
     * @param interfaces the node's interfaces to sample (lab.yml's {@code stats}); empty means all
     */
    void watch(String labId, String node, List<String> interfaces, StatsViewer viewer)
            throws EngineUnavailableException, NodeNotFoundException {
        samplers.watch(
                new Key(labId, node),
                viewer,
                (key, onGone) -> new NodeSampler(
                        labId, node, interfaces, runtime, interval, json, restarts, ticks, backlogs, history, onGone));
    }

    /** Stops delivering to {@code viewer}; the sampler stops when nobody watches the node any more. */
    void unwatch(String labId, String node, StatsViewer viewer) {
        samplers.unwatch(new Key(labId, node), viewer);
    }

    /** Number of sampler processes running or restarting. */
    public int samplerCount() {
        return samplers.size();
    }

    /** Number of the lab's sampler processes running or restarting. */
    public int samplerCount(String labId) {
        return samplers.count(key -> key.labId().equals(labId));
    }

    /**
     * Tells the viewers of a lab's nodes that a node (or the lab's own kernel, which holds them all) holds its CPU at
     * its limit, or no longer does.
     */
    void cpuNotice(@Observes LabCpuNotice notice) {
        samplers.publish(
                key -> key.labId().equals(notice.labId())
                        && (notice.node() == null || key.node().equals(notice.node())),
                key -> new StatsFrames.CpuNotice(key.node(), notice.text()));
    }

    void onShutdown(@Observes ShutdownEvent event) {
        samplers.stopAll();
        restarts.shutdownNow();
        ticks.shutdownNow();
    }
}
