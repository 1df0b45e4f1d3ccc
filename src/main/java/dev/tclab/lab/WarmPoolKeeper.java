package dev.tclab.lab;

import dev.tclab.common.WorkerThreads;
import dev.tclab.config.TclabConfig;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.LabEngine;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.runtime.topology.Topology;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.jboss.logging.Logger;

/**
 * Keeps the warm pool ({@code tclab.pool} plus {@link PoolReservations}) at its targets: starts labs with no owner
 * in the background within the server's maximum, retires the ones beyond the targets or unclaimed too long, and
 * makes the hand-out of a pooled lab to a learner durable. Which lab a Start takes is {@link LabTable}'s call,
 * under its lock; the pool's bookkeeping is {@link WarmPool}. Each replica keeps its own pool.
 * <p>
 * The refill yields to learners: a class pressing Start at once takes the pool, and starting its 30 replacements
 * (120 containers) at that moment made every hand-out wait for the CPU the engine took. So the refill runs on its own
 * thread, starts nothing until Starts have been quiet for {@code tclab.lab.pool-refill-quiet} and no learner's lab
 * is starting, and then starts at most {@code tclab.lab.pool-refill-starts} pooled labs at a time, the next as one
 * becomes ready.
 */
final class WarmPoolKeeper {

    private static final Logger LOG = Logger.getLogger(WarmPoolKeeper.class);

    private final LabTable table;
    private final WarmPool pool;
    private final LabStarter starter;
    private final LabRuntime runtime;
    private final LabEngine engine;
    private final LabRegistry registry;
    private final LabFactory factory;
    private final InstantSource clock;
    private final TclabConfig.Lab config;
    /** {@code tclab.pool}: lesson slug to how many labs to keep pooled. */
    private final Map<String, Integer> poolSizes;

    private final Iterable<PoolReservations> reservations;
    private final Counter handouts;
    private final Counter misses;
    /** The pool's targets as of the latest refill, read on every Start (to count misses) without a database. */
    private volatile Map<String, Integer> targets = Map.of();
    /** Lessons the pool cannot hold, each warned about once. */
    private final Set<String> unpoolableWarned = ConcurrentHashMap.newKeySet();
    /** Who to tell when a slot frees. */
    private final Runnable slotFreed;

    private final ScheduledExecutorService pacer =
            Executors.newSingleThreadScheduledExecutor(WorkerThreads.named("tclab-pool-refill"));
    private final AtomicBoolean refillScheduled = new AtomicBoolean();
    /** When the latest Start was pressed ({@link System#nanoTime}). */
    private volatile long lastStart;

    /**
     * @param poolSizes {@code tclab.pool}: lesson slug to how many labs to keep pooled
     * @param slotFreed told when a retired pooled lab freed its slot
     */
    WarmPoolKeeper(
            LabParts parts,
            Map<String, Integer> poolSizes,
            Iterable<PoolReservations> reservations,
            MeterRegistry metrics,
            Runnable slotFreed) {
        this.table = parts.table();
        this.pool = table.pool();
        this.starter = parts.starter();
        this.runtime = parts.runtime();
        this.engine = parts.engine();
        this.registry = parts.registry();
        this.factory = parts.factory();
        this.clock = parts.clock();
        this.config = parts.config();
        this.poolSizes = Map.copyOf(poolSizes);
        this.poolSizes.forEach((lesson, size) -> {
            if (size < 0) {
                throw new IllegalArgumentException("tclab.pool.\"" + lesson + "\" is " + size
                        + ": give the number of labs to keep started for that lesson, 0 or more.");
            }
        });
        this.reservations = reservations;
        this.handouts = Counter.builder("tclab.pool.handouts")
                .description("Starts answered with a lab from the warm pool")
                .register(metrics);
        this.misses = Counter.builder("tclab.pool.misses")
                .description("Starts of a pooled lesson that found no ready lab in the pool")
                .register(metrics);
        this.slotFreed = slotFreed;
        this.lastStart = System.nanoTime() - this.config.poolRefillQuiet().toNanos();
        if (this.config.poolRefillStarts() < 1) {
            throw new IllegalArgumentException("tclab.lab.pool-refill-starts is " + this.config.poolRefillStarts()
                    + ": give how many pooled labs may start at once, 1 or more.");
        }
    }

    /** A learner pressed Start: the refill waits until Starts have been quiet for a while. */
    void startPressed() {
        lastStart = System.nanoTime();
    }

    /**
     * Makes the claim of a pooled lab durable: the database hands it to the learner only if no one else (another
     * server on the same database) claimed it first. False when someone did; when the database fails, the pooled
     * lab goes back to the pool and the failure is thrown.
     */
    boolean handOut(Lab pooled, Lab claimed) {
        boolean took;
        try {
            took = registry.claim(claimed.record());
        } catch (RuntimeException e) {
            // Not recorded as the learner's, so not handed out: the pooled lab waits for the next Start.
            pool.add(pooled);
            throw e;
        }
        if (!took) {
            LOG.infof("pooled lab %s was claimed by another server first", claimed.id());
            return false;
        }
        handouts.increment();
        LOG.infof("lab %s (%s) handed from the pool to %s", claimed.id(), claimed.lesson(), claimed.owner());
        refillSoon();
        return true;
    }

    /** Counts a Start of the lesson that got no ready lab from the pool, if the lesson is pooled. */
    void missed(String lesson) {
        if (targets.getOrDefault(lesson, poolSizes.getOrDefault(lesson, 0)) > 0) {
            misses.increment();
        }
    }

    /**
     * Refills the pool on the pool's own thread once Starts are quiet, so that the caller does not wait for it: after
     * a stop, a hand-out or a pooled lab ready, at every cull, or when the reservations changed (a workshop created).
     */
    void refillSoon() {
        if (refillScheduled.compareAndSet(false, true)) {
            refillAfter(untilQuiet());
        }
    }

    private void refillAfter(long nanos) {
        try {
            pacer.schedule(this::refillWhenQuiet, Math.max(0, nanos), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            LOG.debug("not refilling the pool: the server is stopping");
        }
    }

    /** Nanoseconds until Starts have been quiet for the configured time; 0 or less when they have. */
    private long untilQuiet() {
        return lastStart + config.poolRefillQuiet().toNanos() - System.nanoTime();
    }

    private void refillWhenQuiet() {
        long wait = untilQuiet();
        if (wait > 0 || table.learnersStarting()) {
            // Looked at again later: the pool is for the next learners, the ones starting now come first.
            refillAfter(Math.max(wait, config.poolRefillQuiet().toNanos() / 4));
            return;
        }
        refillScheduled.set(false);
        try {
            refill();
        } catch (RuntimeException e) {
            LOG.warnf("could not refill the pool: %s", e.getMessage());
        }
    }

    /** Stops the pool's thread; for shutdown. */
    void shutdown() {
        pacer.shutdownNow();
    }

    /** {@code tclab.pool} plus what is reserved (workshops): lesson slug to labs to keep pooled. */
    private Map<String, Integer> readTargets() {
        Map<String, Integer> read = new HashMap<>(poolSizes);
        for (PoolReservations source : reservations) {
            try {
                source.reservedLabs().forEach((lesson, n) -> read.merge(lesson, Math.max(0, n), Integer::sum));
            } catch (RuntimeException e) {
                LOG.warnf("cannot read the labs reserved for the pool now: %s", e.getMessage());
            }
        }
        read.values().removeIf(n -> n <= 0);
        targets = Map.copyOf(read);
        return read;
    }

    /**
     * Brings the warm pool towards its targets: stops pooled labs beyond them or unclaimed for a whole lifetime
     * (their learner must still get a full one), and starts new ones while slots are free and nobody waits in the
     * queue, at most {@code pool-refill-starts} starting at a time (the next ones when these are ready).
     * Idempotent; run by {@link #refillSoon}.
     */
    void refill() {
        Instant now = clock.instant();
        Map<String, Integer> wanted = readTargets();
        for (Lab stale : pool.takeSurplusAndStale(wanted, now, config.maxLifetime())) {
            retire(stale, "Stopped: the pool keeps fewer labs of this lesson now, or it waited a whole lifetime.");
        }
        if (wanted.isEmpty() || !engine.engine().reachable()) {
            return;
        }
        Map<String, Topology> poolable = new HashMap<>();
        wanted.keySet().forEach(lesson -> {
            Topology topology = factory.topologyOf(lesson);
            if (topology != null && WarmPool.poolable(topology)) {
                poolable.put(lesson, topology);
            } else if (unpoolableWarned.add(lesson)) {
                LOG.warnf(
                        "not pooling labs of '%s': %s",
                        lesson,
                        topology == null
                                ? "no working lesson has this name"
                                : "its lab.yml names a parameter ({{...}})");
            }
        });
        List<Lab> toStart = table.addPooled(
                poolable,
                wanted,
                config.poolRefillStarts() - pool.starting(),
                (lesson, topology) -> factory.pooled(lesson, topology, now));
        for (Lab lab : toStart) {
            try {
                starter.begin(lab);
            } catch (RuntimeException e) {
                LOG.warnf("could not start a pooled lab of %s: %s", lab.lesson(), e.getMessage());
            }
        }
    }

    /** Notices pooled labs whose containers died ({@code runs} says no), so they free their slot and refill. */
    void removeDead(Predicate<Lab> runs) {
        for (Lab lab : pool.all()) {
            if (lab.phase() == LabPhase.RUNNING && !runs.test(lab)) {
                pool.remove(lab);
            }
        }
    }

    /** Stops a lab taken out of the pool; its slot is free at once (a queued lab may take it). */
    void retire(Lab pooled, String why) {
        LabPhase was = pooled.stopped(why, clock.instant());
        if (was == null) {
            return;
        }
        LOG.infof("pooled lab %s (%s): %s", pooled.id(), pooled.lesson(), why);
        starter.record(pooled);
        // One still starting is removed by its start worker once the start returns (see LabStarter).
        if (was == LabPhase.RUNNING && !starter.submit(() -> stop(pooled))) {
            LOG.warnf("could not stop pooled lab %s: the server is stopping", pooled.id());
        }
        slotFreed.run();
    }

    private void stop(Lab pooled) {
        try {
            runtime.stop(pooled.id());
        } catch (EngineUnavailableException e) {
            LOG.warnf("could not stop pooled lab %s: %s", pooled.id(), e.getMessage());
        }
    }

    /** Labs in the warm pool, starting or ready; each holds a slot. */
    int size() {
        return pool.size();
    }

    /** Ready labs in the warm pool for the lesson. */
    int ready(String lesson) {
        return (int) pool.all().stream()
                .filter(l -> l.lesson().equals(lesson) && l.phase() == LabPhase.RUNNING)
                .count();
    }
}
