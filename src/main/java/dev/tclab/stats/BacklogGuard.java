package dev.tclab.stats;

import dev.tclab.common.WorkerThreads;
import dev.tclab.config.TclabConfig;
import dev.tclab.lab.Lab;
import dev.tclab.lab.LabEnded;
import dev.tclab.lab.LabPhase;
import dev.tclab.lab.LabService;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.runtime.NodeNotFoundException;
import dev.tclab.scheduling.Job;
import dev.tclab.tc.QdiscParser;
import dev.tclab.tc.TcParseException;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * Keeps the packets a lab's queues hold below a ceiling. They live in kernel memory that no node's memory limit
 * counts (measured here: a tbf with {@code limit 600mb} and a UDP flood held 84 MB, kept after the sender ended).
 * The samplers report every node's root-qdisc backlogs each round; labs nobody watches (the page closed) are looked at
 * every {@code tclab.lab.cull-interval} instead. When a lab's total passes {@code tclab.lab.max-qdisc-backlog-mib},
 * the root qdisc holding the most is deleted (which frees its packets) and the learner is told.
 */
@ApplicationScoped
public class BacklogGuard {

    private static final Logger LOG = Logger.getLogger(BacklogGuard.class);
    private static final Duration EXEC_TIMEOUT = Duration.ofSeconds(10);
    /** A lab whose samplers reported within this long is watched by them; the sweep leaves it alone. */
    private static final Duration WATCHED = Duration.ofSeconds(10);

    private final LabRuntime runtime;
    private final LabService labs;
    private final long ceilingBytes;
    /** Lab id, then node, then interface: the bytes its root qdisc held in the node's last round. */
    private final Map<String, Map<String, Map<String, Long>>> backlogs = new ConcurrentHashMap<>();

    private final Set<String> resetting = ConcurrentHashMap.newKeySet();
    private final Map<String, Instant> reportedAt = new ConcurrentHashMap<>();
    // One thread: resets are rare, and an exec must not block the sampler's stream thread that reports.
    private final ExecutorService resets =
            Executors.newSingleThreadExecutor(WorkerThreads.named("tclab-backlog-reset"));

    private final InstantSource clock;

    public BacklogGuard(LabRuntime runtime, LabService labs, TclabConfig config, InstantSource clock) {
        this.clock = clock;
        this.runtime = runtime;
        this.labs = labs;
        this.ceilingBytes = (long) config.lab().maxQdiscBacklogMib() << 20;
    }

    /**
     * Takes one node's root-qdisc backlogs (bytes by interface) and, when the lab's total is above the ceiling,
     * removes the biggest queue of the lab; {@code tell} then gets the frame for the lab's viewers.
     */
    void report(String labId, String node, Map<String, Long> byInterface, Consumer<StatsFrames.BacklogReset> tell) {
        reportedAt.put(labId, clock.instant());
        check(labId, node, byInterface, tell);
    }

    /**
     * Looks at the running labs no sampler reported on lately: the learner may have filled a queue and closed the
     * page. Reads every interactive node's qdiscs (one exec each); a reset is logged, as nobody is there to tell.
     */
    @Job
    @Scheduled(every = "${tclab.lab.cull-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void sweepUnwatched() {
        Instant now = clock.instant();
        for (Lab lab : labs.all()) {
            Instant reported = reportedAt.get(lab.id());
            if (lab.phase() != LabPhase.RUNNING || reported != null && reported.isAfter(now.minus(WATCHED))) {
                continue;
            }
            for (String node : lab.topology().interactiveNodes()) {
                try {
                    ExecResult qdiscs =
                            runtime.exec(lab.id(), node, List.of("tc", "-s", "-j", "qdisc", "show"), EXEC_TIMEOUT);
                    check(
                            lab.id(),
                            node,
                            SampleParser.rootBacklogs(QdiscParser.parseJson(qdiscs.stdout())),
                            reset -> {});
                } catch (EngineUnavailableException | NodeNotFoundException | TcParseException | RuntimeException e) {
                    LOG.debugf("cannot read the queues of %s in lab %s: %s", node, lab.id(), e.getMessage());
                }
            }
        }
    }

    private void check(
            String labId, String node, Map<String, Long> byInterface, Consumer<StatsFrames.BacklogReset> tell) {
        Map<String, Map<String, Long>> lab = backlogs.computeIfAbsent(labId, k -> new ConcurrentHashMap<>());
        lab.put(node, byInterface);
        long total = lab.values().stream()
                .flatMap(m -> m.values().stream())
                .mapToLong(Long::longValue)
                .sum();
        if (total <= ceilingBytes || !resetting.add(labId)) {
            return;
        }
        String biggestNode = null;
        String biggestDev = null;
        long biggest = -1;
        for (Map.Entry<String, Map<String, Long>> n : lab.entrySet()) {
            for (Map.Entry<String, Long> d : n.getValue().entrySet()) {
                if (d.getValue() > biggest) {
                    biggestNode = n.getKey();
                    biggestDev = d.getKey();
                    biggest = d.getValue();
                }
            }
        }
        String holder = biggestNode;
        String dev = biggestDev;
        long held = biggest;
        resets.execute(() -> reset(labId, holder, dev, held, total, tell));
    }

    private void reset(
            String labId, String node, String dev, long held, long total, Consumer<StatsFrames.BacklogReset> tell) {
        try {
            ExecResult result =
                    runtime.exec(labId, node, List.of("tc", "qdisc", "del", "dev", dev, "root"), EXEC_TIMEOUT);
            boolean done = result.ok();
            LOG.infof(
                    "lab %s held %d bytes in its queues (ceiling %d); root qdisc of %s on %s (%d bytes) %s",
                    labId,
                    total,
                    ceilingBytes,
                    dev,
                    node,
                    held,
                    done ? "removed" : "could not be removed: " + result.stderr());
            Map<String, Map<String, Long>> lab = backlogs.get(labId);
            if (done && lab != null) {
                lab.computeIfPresent(node, (n, devs) -> {
                    Map<String, Long> rest = new HashMap<>(devs);
                    rest.remove(dev);
                    return rest;
                });
            }
            tell.accept(new StatsFrames.BacklogReset(node, dev, held, ceilingBytes, message(node, dev, held, done)));
        } catch (EngineUnavailableException | NodeNotFoundException | RuntimeException e) {
            LOG.debugf("backlog reset in lab %s failed: %s", labId, e.getMessage());
        } finally {
            resetting.remove(labId);
        }
    }

    private String message(String node, String dev, long held, boolean done) {
        String what = "The queue of " + dev + " on " + node + " held " + mib(held) + " MiB of packets; a lab may hold "
                + mib(ceilingBytes) + " MiB in its queues (kernel memory outside the node's limits).";
        return done
                ? what + " tclab removed that root qdisc: add it again with a smaller limit."
                : what + " tclab could not remove it: delete it with `tc qdisc del dev " + dev + " root`.";
    }

    private static String mib(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f", bytes / 1048576.0);
    }

    void onLabEnded(@Observes LabEnded ended) {
        backlogs.remove(ended.labId());
        reportedAt.remove(ended.labId());
    }

    void onShutdown(@Observes ShutdownEvent event) {
        resets.shutdownNow();
    }
}
