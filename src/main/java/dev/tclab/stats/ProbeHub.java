package dev.tclab.stats;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.common.WorkerThreads;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.runtime.NodeNotFoundException;
import dev.tclab.runtime.topology.Topology;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The latency probes of this server: at most one ping process per probe of a lab, running while somebody watches
 * the lab's statistics. Calls block (they start engine streams): never call them on the event loop.
 */
@ApplicationScoped
public class ProbeHub {

    /** How often new round trips go to the pages: often enough to look live, seldom enough to redraw cheaply. */
    static final long FLUSH_EVERY_MS = 500;

    private record Key(String labId, int index) {}

    private final LabRuntime runtime;
    private final ObjectMapper json;
    private final InstantSource clock;
    private final SharedProcesses<Key> runners = new SharedProcesses<>();
    private final ScheduledExecutorService restarts =
            Executors.newSingleThreadScheduledExecutor(WorkerThreads.named("tclab-probe-restart"));
    // Separate from restarts, which block on the engine: a flush only hands frames to the viewers.
    private final ScheduledExecutorService flushes =
            Executors.newSingleThreadScheduledExecutor(WorkerThreads.named("tclab-probe-flush"));

    public ProbeHub(LabRuntime runtime, ObjectMapper json, InstantSource clock) {
        this.clock = clock;
        this.runtime = runtime;
        this.json = json;
    }

    /**
     * Starts delivering the round trips of every probe of the lab to {@code viewer}, starting the probes nobody
     * watched yet. On failure the probes this call started watching are released again.
     */
    void watch(String labId, List<Topology.Probe> probes, StatsViewer viewer)
            throws EngineUnavailableException, NodeNotFoundException {
        List<Integer> watched = new ArrayList<>();
        try {
            for (int i = 0; i < probes.size(); i++) {
                watch(new Key(labId, i), probes.get(i), viewer);
                watched.add(i);
            }
        } catch (EngineUnavailableException | NodeNotFoundException | RuntimeException e) {
            watched.forEach(i -> runners.unwatch(new Key(labId, i), viewer));
            throw e;
        }
    }

    private void watch(Key key, Topology.Probe probe, StatsViewer viewer)
            throws EngineUnavailableException, NodeNotFoundException {
        runners.watch(
                key,
                viewer,
                (k, onGone) -> new ProbeRunner(
                        k.labId(), probe, k.index(), runtime, json, restarts, flushes, FLUSH_EVERY_MS, clock, onGone));
    }

    /** Stops delivering to {@code viewer}; a probe stops when nobody watches its lab any more. */
    void unwatch(String labId, int probeCount, StatsViewer viewer) {
        for (int i = 0; i < probeCount; i++) {
            runners.unwatch(new Key(labId, i), viewer);
        }
    }

    /** Number of probe processes running or restarting. */
    public int probeCount() {
        return runners.size();
    }

    void onShutdown(@Observes ShutdownEvent event) {
        runners.stopAll();
        restarts.shutdownNow();
        flushes.shutdownNow();
    }
}
