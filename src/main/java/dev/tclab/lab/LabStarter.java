package dev.tclab.lab;

import dev.tclab.common.WorkerThreads;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.runtime.LabSpec;
import dev.tclab.runtime.LabStartException;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.InstantSource;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * Runs labs' starts on the engine, on worker threads, and writes their phases to the registry. A lab is recorded
 * before its start is handed to a worker: unrecorded, it is not started. Docker calls block, so starts (and the
 * pool's stops) run here, never on the event loop; the number of workers bounds the starts that run at once
 * ({@code tclab.lab.concurrent-starts}), more wait for a worker, in STARTING with no stage yet.
 */
final class LabStarter {

    private static final Logger LOG = Logger.getLogger(LabStarter.class);

    private final LabRuntime runtime;
    private final LabRegistry registry;
    private final MeterRegistry metrics;
    private final InstantSource clock;
    private final ExecutorService workers;
    /** Labs whose start runs on this replica's workers; any other lab STARTING is another replica's start. */
    private final Set<String> startingHere = ConcurrentHashMap.newKeySet();

    private final Consumer<Lab> unrecorded;
    private final Consumer<Lab> startFailed;
    private final Consumer<Lab> pooledReady;

    /**
     * @param unrecorded  told of a lab that could not be recorded (so it was not started), to forget it
     * @param startFailed told of a lab whose start failed, once it is recorded as FAILED
     */
    LabStarter(
            LabRuntime runtime,
            LabRegistry registry,
            MeterRegistry metrics,
            InstantSource clock,
            int concurrentStarts,
            Consumer<Lab> unrecorded,
            Consumer<Lab> startFailed,
            Consumer<Lab> pooledReady) {
        this.runtime = runtime;
        this.registry = registry;
        this.metrics = metrics;
        this.clock = clock;
        this.workers = Executors.newFixedThreadPool(concurrentStarts, WorkerThreads.named("tclab-lab-worker"));
        this.unrecorded = unrecorded;
        this.startFailed = startFailed;
        this.pooledReady = pooledReady;
    }

    /** Records the lab and hands its start to a worker; unrecorded, it is not started. */
    void begin(Lab lab) {
        recorded(lab, () -> {
            registry.save(lab.record());
            return true;
        });
        submitStart(lab);
    }

    /**
     * Starts a lab that left the start queue ({@link Lab#dequeued}), once the registry agrees it was still queued:
     * false, and nothing started, when it was not (another server of the same database started it, or it was
     * stopped there). Unrecorded, it is not started.
     */
    boolean beginDequeued(Lab lab) {
        if (!recorded(lab, () -> registry.leaveQueue(lab.record()))) {
            return false;
        }
        submitStart(lab);
        return true;
    }

    private void submitStart(Lab lab) {
        startingHere.add(lab.id());
        workers.submit(() -> runStart(lab));
    }

    /** Runs the registry write; when it fails, the lab fails and is forgotten, and the failure is thrown. */
    private boolean recorded(Lab lab, BooleanSupplier write) {
        try {
            return write.getAsBoolean();
        } catch (RuntimeException e) {
            // Not recorded, so not acknowledged: the lab is not started (and no longer counts against any quota).
            lab.failed("The lab could not be recorded: " + e.getMessage(), clock.instant());
            unrecorded.accept(lab);
            throw e;
        }
    }

    /** Whether this replica's workers start the lab now. */
    boolean startsHere(String labId) {
        return startingHere.contains(labId);
    }

    /** Runs blocking work on a worker; false when the server is stopping and it will not run. */
    boolean submit(Runnable work) {
        try {
            workers.submit(work);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /** Writes the lab's current state to the registry; a failure is logged (the next phase change writes again). */
    void record(Lab lab) {
        try {
            registry.save(lab.record());
        } catch (RuntimeException e) {
            LOG.errorf("could not record lab %s as %s: %s", lab.id(), lab.phase(), e.getMessage());
        }
    }

    /** Lets the work handed over finish, for a few seconds at most. */
    void shutdown() {
        workers.shutdown();
        try {
            workers.awaitTermination(8, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void runStart(Lab lab) {
        LabSpec spec = lab.pooled()
                ? new LabSpec(lab.id(), lab.topology(), LabSpec.POOL_OWNER, lab.lesson(), true)
                : new LabSpec(lab.id(), lab.topology(), lab.owner(), lab.lesson());
        long began = System.nanoTime();
        String outcome = "failed";
        try {
            runtime.start(spec, (stage, detail) -> lab.stageReached(stage));
            outcome = "ready";
            if (lab.ready(clock.instant())) {
                record(lab);
                LOG.infof(
                        "lab %s (%s) of %s is ready", lab.id(), lab.lesson(), lab.pooled() ? "the pool" : lab.owner());
                if (lab.pooled()) {
                    pooledReady.accept(lab);
                }
            } else {
                // Stopped while starting: the stop ran before our containers existed, so remove them now.
                runtime.stop(lab.id());
            }
        } catch (LabStartException | EngineUnavailableException | RuntimeException e) {
            LOG.warnf("lab %s (%s) failed to start: %s", lab.id(), lab.lesson(), e.getMessage());
            if (lab.failed("The lab could not start: " + e.getMessage(), clock.instant())) {
                record(lab);
                startFailed.accept(lab);
            }
        } finally {
            startingHere.remove(lab.id());
            Timer.builder("tclab.lab.start")
                    .description("Time a lab start took on the engine, from its worker to ready")
                    .tag("outcome", outcome)
                    .publishPercentileHistogram()
                    .register(metrics)
                    .record(System.nanoTime() - began, TimeUnit.NANOSECONDS);
        }
    }
}
