package dev.tclab.lab;

import dev.tclab.config.TclabConfig;
import dev.tclab.runtime.EngineStatus;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.KernelCapabilities;
import dev.tclab.runtime.LabEngine;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.runtime.topology.Topology;
import dev.tclab.runtime.topology.TopologyException;
import dev.tclab.runtime.topology.TopologySource;
import dev.tclab.scheduling.Job;
import dev.tclab.yaml.FileProblem;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.ObserverMethod;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Every learner's lab of this server: starts them (or queues them while the server is full, or hands them one from
 * the warm pool), enforces one lab per learner and lesson and the server's maximum, checks ownership and stops them.
 * It is a facade: the labs, pool and queue are {@link LabTable}'s, the pool is kept by {@link WarmPoolKeeper}, starts
 * run in {@link LabStarter}, labs a restart left are taken back by {@link LabAdoption}, idle, expired and dead ones
 * are stopped by {@link LabCuller}, and the copy of other replicas' labs is kept in step by {@link ReplicaSync}.
 * <p>
 * Several replicas may share one database and one engine: the registry is then the truth, and the table is this
 * replica's copy of it (see docs/SCALING.md).
 */
@ApplicationScoped
public class LabService {

    private static final Logger LOG = Logger.getLogger(LabService.class);

    private final LabRuntime runtime;
    private final LabEngine engine;
    private final TclabConfig.Lab config;
    private final InstantSource clock;
    private final LabTable labs;
    private final LabFactory factory;
    private final Event<LabEnded> ended;
    private final LabRegistry registry;
    private final TopologySource topologies;
    /** How long labs waited in the start queue, for operators at /q/metrics. */
    private final Timer queueWaits;

    private final LabStarter starter;
    private final WarmPoolKeeper poolKeeper;
    private final ReplicaSync replicas;
    private final LabAdoption adoption;
    private final LabCuller culler;
    private final Event<PooledLabReady> pooledReady;
    /** Set once the start-up checks passed and the recorded labs were adopted (see {@link #adoptAtStart}). */
    private volatile boolean serving;

    public LabService(
            LabRuntime runtime,
            LabEngine engine,
            TclabConfig config,
            InstantSource clock,
            Event<LabEnded> ended,
            Event<LabAdopted> adopted,
            Event<PooledLabReady> pooledReady,
            LabRegistry registry,
            TopologySource topologies,
            MeterRegistry metrics,
            LabWatchers watchers,
            Instance<PoolReservations> reservations,
            Instance<LabTermsSource> termSources) {
        this.runtime = runtime;
        this.engine = engine;
        this.config = config.lab();
        this.clock = clock;
        this.ended = ended;
        this.pooledReady = pooledReady;
        this.registry = registry;
        this.topologies = topologies;
        this.queueWaits = Timer.builder("tclab.lab.queue.wait")
                .description("Time a lab waited in the start queue")
                .publishPercentileHistogram()
                .register(metrics);
        this.labs = new LabTable(this.config.maxRunning(), this.config.queueSize());
        this.factory = new LabFactory(topologies, new LabTermsPolicy(this.config, termSources));
        this.starter = new LabStarter(
                runtime,
                registry,
                metrics,
                clock,
                this.config.concurrentStarts(),
                labs::forget,
                this::startFailed,
                this::pooledLabReady);
        LabParts parts = new LabParts(labs, starter, runtime, engine, registry, factory, clock, this.config);
        this.replicas = new ReplicaSync(parts, ended, adopted);
        this.poolKeeper = new WarmPoolKeeper(parts, config.pool(), reservations, metrics, this::startQueued);
        this.adoption = new LabAdoption(parts, replicas, adopted, this::startQueued);
        this.culler = new LabCuller(parts, replicas, poolKeeper, watchers, ended, this::stopQuietly);
    }

    /**
     * Returns the learner's live lab for the lesson, or begins starting a new one (returned in STARTING), or, when
     * the server runs its maximum of labs or others already wait, queues it (returned in QUEUED; it starts by itself
     * when a slot frees). {@code created} tells whether the lab is new.
     *
     * @throws ServerFullException        when the server runs its maximum of labs and the queue is full too
     * @throws EngineUnavailableException when the container engine does not answer
     * @throws QuotaExceededException     when {@code admission} refuses the new lab
     */
    public record StartResult(Lab lab, boolean created) {}

    public StartResult startOrGet(String owner, String lesson, Topology topology, StartAdmission admission)
            throws ServerFullException, EngineUnavailableException, QuotaExceededException {
        poolKeeper.startPressed();
        // A lab started through another replica is the learner's lab too.
        replicas.syncOwners(List.of(owner));
        Optional<Lab> existing = labs.liveLabOf(owner, lesson);
        if (existing.isPresent()) {
            existing.get().touch(clock.instant());
            return new StartResult(existing.get(), false);
        }
        // Asked before taking the lock: no lock is held across an engine call. A ready pooled lab needs none (it
        // runs already); should another learner take it first, a fresh start without the engine fails as it would.
        if (!labs.pool().holdsReady(lesson)) {
            EngineStatus status = engine.engine();
            if (!status.reachable()) {
                throw new EngineUnavailableException(
                        "cannot reach the Docker engine at " + status.endpoint() + ": " + status.error(), null);
            }
        }
        Map<String, String> parameters = topologies.parametersFor(lesson, owner);
        // The lab's creation time, to the microsecond as the registry keeps it, so its terms count from it exactly.
        Instant created = clock.instant().truncatedTo(ChronoUnit.MICROS);
        LabTerms labTerms = factory.termsFor(owner, lesson, created);
        LabTable.Placement placed = labs.place(
                owner,
                lesson,
                clock.instant(),
                admission,
                pooled -> {
                    Lab claimed = pooled.claimedBy(owner, parameters, created);
                    claimed.governedBy(labTerms);
                    return claimed;
                },
                (id, queued) -> {
                    Lab fresh = queued
                            ? Lab.queued(id, owner, lesson, parameters, topology, created)
                            : new Lab(id, owner, lesson, parameters, topology, created);
                    fresh.governedBy(labTerms);
                    return fresh;
                });
        Lab lab = placed.lab();
        if (!placed.created()) {
            return new StartResult(lab, false);
        }
        if (placed.fromPool() != null) {
            return handOut(placed.fromPool(), lab, topology, admission);
        }
        if (placed.evicted() != null) {
            poolKeeper.retire(placed.evicted(), "Stopped to free its slot for a learner's lab.");
        }
        poolKeeper.missed(lesson);
        if (lab.phase() == LabPhase.QUEUED) {
            enqueued(lab);
            return new StartResult(lab, true);
        }
        starter.begin(lab);
        return new StartResult(lab, true);
    }

    /**
     * Hands the pooled lab to its learner once the database agrees; a lost claim (another server on the same
     * database took it first) starts over: another pooled lab, or a fresh start.
     */
    private StartResult handOut(Lab pooled, Lab claimed, Topology topology, StartAdmission admission)
            throws ServerFullException, EngineUnavailableException, QuotaExceededException {
        boolean took;
        try {
            took = poolKeeper.handOut(pooled, claimed);
        } catch (RuntimeException e) {
            labs.remove(claimed.id());
            claimed.failed("The lab could not be recorded: " + e.getMessage(), clock.instant());
            throw e;
        }
        if (!took) {
            labs.remove(claimed.id());
            claimed.stopped("Claimed by another server first.", clock.instant());
            return startOrGet(claimed.owner(), claimed.lesson(), topology, admission);
        }
        return new StartResult(claimed, true);
    }

    /** A pooled lab is ready: its shells start, and the pool goes on refilling (a few labs at a time). */
    private void pooledLabReady(Lab lab) {
        pooledReady.fireAsync(new PooledLabReady(lab.id(), lab.topology().interactiveNodes()));
        poolKeeper.refillSoon();
    }

    /** A lab whose start failed: a learner's ends; a pooled one leaves the pool (refilled at the next cull). */
    private void startFailed(Lab lab) {
        if (lab.pooled()) {
            // Not refilled until the next cull: a lesson whose lab cannot start must not start one in a loop.
            labs.pool().remove(lab);
            startQueued();
        } else {
            ended.fire(new LabEnded(lab.id()));
        }
    }

    /**
     * Records a lab that joined the queue before its place is acknowledged, so that a restart queues it again
     * ({@link #adoptRecorded}); the queue waits at it until then. Unrecorded, it leaves the queue and is refused.
     */
    private void enqueued(Lab lab) {
        try {
            registry.save(lab.record());
        } catch (RuntimeException e) {
            labs.queue().remove(lab);
            lab.failed("The lab could not be recorded: " + e.getMessage(), clock.instant());
            labs.remove(lab.id());
            startQueued();
            throw e;
        }
        labs.queue().recorded(lab);
        startQueued();
    }

    /** Starts queued labs, oldest first, while slots are free. */
    private void startQueued() {
        for (Lab lab : labs.takeQueued()) {
            queueWaits.record(Duration.between(lab.createdAt(), clock.instant()));
            try {
                if (!starter.beginDequeued(lab)) {
                    // Started or stopped through another server: the next look reads it from the registry.
                    LOG.infof("queued lab %s left the queue on another server", lab.id());
                    labs.remove(lab.id());
                    startQueued();
                }
            } catch (RuntimeException e) {
                LOG.errorf("queued lab %s could not start: %s", lab.id(), e.getMessage());
                ended.fire(new LabEnded(lab.id()));
            }
        }
    }

    /**
     * Every lab that ends (stopped, culled, failed, died) fires {@link LabEnded}; a lab that held a slot frees it,
     * so the head of the queue starts.
     */
    void onLabEnded(@Observes LabEnded event) {
        Lab lab = labs.get(event.labId());
        if (lab != null && lab.readyAt() != null) {
            labs.queue().slotFreed(clock.instant());
        }
        startQueued();
        poolKeeper.refillSoon();
    }

    /**
     * Refills the pool on a worker, so that the caller does not wait for it: after a stop or a hand-out, or when
     * the reservations changed (a workshop created).
     */
    public void refillPoolSoon() {
        poolKeeper.refillSoon();
    }

    /** Brings the warm pool to its targets now (see {@link WarmPoolKeeper#refill}). */
    public void refillPool() {
        poolKeeper.refill();
    }

    /** Labs in the warm pool, starting or ready; each holds a slot. */
    public int pooledCount() {
        return poolKeeper.size();
    }

    /** Ready labs in the warm pool for the lesson. */
    public int pooledReady(String lesson) {
        return poolKeeper.ready(lesson);
    }

    /** Where a queued lab stands in the start queue; empty when it is not queued. */
    public Optional<StartQueue.Spot> queueSpot(Lab lab) {
        return lab.phase() == LabPhase.QUEUED ? labs.queue().spotOf(lab, clock.instant()) : Optional.empty();
    }

    /**
     * The kernel of the lab when it runs in one of its own (its lesson's labs do), once that kernel was probed; empty on
     * the host's kernel. No engine call: the host's kernel, which {@code kernel: auto} decides on, is probed when the
     * engine first answers, before any lab starts.
     */
    public Optional<KernelCapabilities> ownKernelOf(Lab lab) {
        try {
            return engine.runsOwnKernel(lab.topology(), lab.lesson()) ? engine.ownKernelIfProbed() : Optional.empty();
        } catch (EngineUnavailableException e) {
            return Optional.empty();
        }
    }

    /** How many labs wait in the start queue. */
    public int queuedCount() {
        return labs.queue().size();
    }

    /**
     * The lab, if it exists and belongs to {@code owner}. Looking does not count as using it: an open page that
     * polls must not keep a lab from idle culling; starting, typing and checking do ({@link Lab#touch}).
     */
    public Lab get(String labId, String owner) throws LabNotFoundException {
        Lab lab = replicas.synced(labId);
        if (lab == null || !lab.owner().equals(owner)) {
            throw new LabNotFoundException();
        }
        return lab;
    }

    /** A running lab of {@code owner}, for terminals and checks. */
    public Lab getRunning(String labId, String owner) throws LabNotFoundException {
        Lab lab = get(labId, owner);
        if (lab.phase() != LabPhase.RUNNING) {
            throw LabNotFoundException.notRunning(lab);
        }
        return lab;
    }

    /** Every lab of one learner, newest first. */
    public List<Lab> labsOf(String owner) {
        return labsOf(List.of(owner)).getOrDefault(owner, List.of());
    }

    /** Every lab of each of these learners, newest first: one registry read for a whole class. */
    public Map<String, List<Lab>> labsOf(Collection<String> owners) {
        replicas.syncOwners(owners);
        return labs.labsOf(owners);
    }

    /** Every lab on this server, for the host's dashboard. */
    public List<Lab> all() {
        return labs.all();
    }

    /** Labs holding a slot of the server's maximum: learners' starting and running labs, and the pool's. */
    public int liveCount() {
        return labs.liveCount();
    }

    /** How many labs are in {@code phase} now. */
    public int countIn(LabPhase phase) {
        return labs.countIn(phase);
    }

    public int maxRunning() {
        return config.maxRunning();
    }

    /** Stops the learner's lab. Idempotent. */
    public void stop(String labId, String owner) throws LabNotFoundException, EngineUnavailableException {
        Lab lab = get(labId, owner);
        stopLab(lab, "Stopped by the learner.");
    }

    /** Stops the learner's lab for someone else (a workshop host), saying why. Idempotent. */
    public void stop(String labId, String owner, String why) throws LabNotFoundException, EngineUnavailableException {
        stopLab(get(labId, owner), why);
    }

    /**
     * Stops the learner's lab, saying why, and starts a fresh lab of the same lesson for them (a host's reset),
     * admitted, queued or refused like any start.
     */
    public StartResult replace(String labId, String owner, String why, StartAdmission admission)
            throws LabNotFoundException, EngineUnavailableException, ServerFullException, QuotaExceededException,
                    TopologyException {
        Lab old = get(labId, owner);
        Topology topology = topologies
                .topologyFor(old.lesson())
                .orElseThrow(() -> new TopologyException(List.of(new FileProblem(
                        old.lesson(), 0, "lesson", "the lesson is gone, so its lab cannot start again"))));
        stopLab(old, why, true);
        return startOrGet(owner, old.lesson(), topology, admission);
    }

    private void stopLab(Lab lab, String why) throws EngineUnavailableException {
        stopLab(lab, why, false);
    }

    private void stopLab(Lab lab, String why, boolean replaced) throws EngineUnavailableException {
        LabPhase was = lab.stopped(why, clock.instant());
        if (was == LabPhase.QUEUED) {
            labs.queue().remove(lab);
        }
        if (was != null) {
            starter.record(lab);
            ended.fire(new LabEnded(lab.id(), replaced));
        }
        // A lab still starting is removed by its start worker once the start returns (see runStart).
        if (was == LabPhase.RUNNING || lab.phase() == LabPhase.FAILED) {
            runtime.stop(lab.id());
        }
    }

    /**
     * Stops labs idle for longer than the idle timeout, or older than the maximum lifetime, and notices labs whose
     * containers died (removed by hand, killed by the kernel) so they stop holding a slot.
     */
    @Job
    @Scheduled(every = "${tclab.lab.cull-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void cullScheduled() {
        // The scheduler starts before the start-up checks are done; a start that fails on one does no lab work.
        if (serving) {
            cull(clock.instant());
        }
    }

    void cull(Instant now) {
        culler.cull(now);
    }

    /**
     * Hears from every running lab's own kernel (a UML lab's agent) and fails those that stopped answering: a hung
     * kernel's container still runs, so the cull's status would never see it.
     */
    @Job
    @Scheduled(every = "3s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void heartbeatScheduled() {
        if (serving) {
            heartbeat(clock.instant());
        }
    }

    void heartbeat(Instant now) {
        culler.heartbeat(now);
    }

    /**
     * Adopts the recorded labs that are still alive (see {@link #adoptRecorded}), then removes containers on the
     * engine that belong to this instance but to no live lab: left by a crash, or by a stop while the engine was
     * down. Run when the app starts serving and when the engine comes back.
     */
    public void reapOrphans() {
        adoption.reapOrphans();
    }

    /**
     * After every {@code @Startup} bean (the database, the lesson catalog's checks): a start that fails on one of them
     * must not have adopted labs or started the pool's refill, which would go on touching the engine and a database
     * being closed while the failed start shuts down.
     */
    void adoptAtStart(@Observes @Priority(ObserverMethod.DEFAULT_PRIORITY + 100) StartupEvent event) {
        adoptRecorded();
        serving = true;
        poolKeeper.refillSoon();
    }

    /** Takes back the labs and queued starts the registry holds that this process does not know (it restarted). */
    public void adoptRecorded() {
        adoption.adoptRecorded();
    }

    private void stopQuietly(Lab lab, String why) {
        try {
            stopLab(lab, why);
        } catch (EngineUnavailableException e) {
            LOG.warnf("could not stop lab %s: %s", lab.id(), e.getMessage());
        }
    }

    /**
     * Running labs stay, recorded as running, for the next start to adopt (unless configured otherwise); their
     * expiry label still bounds their life if no server comes back. Labs still starting are left to that too.
     */
    void onShutdown(@Observes ShutdownEvent event) {
        if (!config.keepOnShutdown()) {
            labs.all().stream()
                    .filter(l -> l.phase() == LabPhase.RUNNING)
                    .forEach(l -> starter.submit(() -> stopQuietly(l, "The server stopped.")));
            labs.pool().all().forEach(l -> {
                labs.pool().remove(l);
                poolKeeper.retire(l, "The server stopped.");
            });
        }
        poolKeeper.shutdown();
        starter.shutdown();
    }
}
