package dev.tclab.lab;

import dev.tclab.config.TclabConfig;
import dev.tclab.yaml.FileProblem;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Owns every lab of this server: starts them in the background, enforces one lab per learner and lesson and the
 * server's maximum, checks ownership, and culls idle, expired, dead and orphaned labs. It also keeps the warm pool
 * ({@code tclab.pool} plus {@link PoolReservations}): labs started with no owner, handed to the next learners who
 * press Start on their lesson, and refilled in the background within the server's maximum.
 * <p>
 * Several replicas may share one database and one engine: the registry is then the truth, and this map is this
 * replica's copy of it. A lab another replica started, stopped or saw used is read from the registry when a learner
 * or host asks for it and at each cull (see docs/SCALING.md). Each replica keeps its own pool.
 */
@ApplicationScoped
public class LabService {

    private static final Logger LOG = Logger.getLogger(LabService.class);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final LabRuntime runtime;
    private final TclabConfig.Lab config;
    private final Map<String, Lab> labs = new ConcurrentHashMap<>();
    /** Labs whose start runs on this replica's workers; any other lab STARTING is another replica's start. */
    private final Set<String> startingHere = ConcurrentHashMap.newKeySet();
    /**
     * Docker calls block, so starts and stops run here, never on the event loop. Its size bounds the starts that run
     * at once ({@code tclab.lab.concurrent-starts}); more starts wait for a worker, in STARTING with no stage yet.
     */
    private final ExecutorService workers;
    private final StartQueue queue;

    private final Event<LabEnded> ended;
    private final LabRegistry registry;
    private final TopologySource topologies;
    private final MeterRegistry metrics;
    private final LabWatchers watchers;
    private final Instance<LabTermsSource> termSources;
    /** How long labs waited in the start queue, for operators at /q/metrics. */
    private final Timer queueWaits;
    private final WarmPool pool = new WarmPool();
    /** {@code tclab.pool}: lesson slug to how many labs to keep pooled. */
    private final Map<String, Integer> poolSizes;
    private final Instance<PoolReservations> reservations;
    private final Counter poolHandouts;
    private final Counter poolMisses;
    /** The pool's targets as of the latest refill, read on every Start (to count misses) without a database. */
    private volatile Map<String, Integer> poolTargets = Map.of();
    /** Lessons the pool cannot hold, each warned about once. */
    private final Set<String> unpoolableWarned = ConcurrentHashMap.newKeySet();

    public LabService(LabRuntime runtime, TclabConfig config, Event<LabEnded> ended, LabRegistry registry,
                      TopologySource topologies, MeterRegistry metrics, LabWatchers watchers,
                      Instance<PoolReservations> reservations, Instance<LabTermsSource> termSources) {
        this.runtime = runtime;
        this.config = config.lab();
        this.ended = ended;
        this.registry = registry;
        this.topologies = topologies;
        this.metrics = metrics;
        this.watchers = watchers;
        this.termSources = termSources;
        this.queueWaits = Timer.builder("tclab.lab.queue.wait").description("Time a lab waited in the start queue")
                .publishPercentileHistogram().register(metrics);
        this.workers = Executors.newFixedThreadPool(this.config.concurrentStarts(),
                WorkerThreads.named("tclab-lab-worker"));
        this.queue = new StartQueue(this.config.queueSize());
        this.poolSizes = Map.copyOf(config.pool());
        poolSizes.forEach((lesson, size) -> {
            if (size < 0) {
                throw new IllegalArgumentException("tclab.pool.\"" + lesson + "\" is " + size
                        + ": give the number of labs to keep started for that lesson, 0 or more.");
            }
        });
        this.reservations = reservations;
        this.poolHandouts = Counter.builder("tclab.pool.handouts")
                .description("Starts answered with a lab from the warm pool").register(metrics);
        this.poolMisses = Counter.builder("tclab.pool.misses")
                .description("Starts of a pooled lesson that found no ready lab in the pool").register(metrics);
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
    public record StartResult(Lab lab, boolean created) {
    }

    public StartResult startOrGet(String owner, String lesson, Topology topology, StartAdmission admission)
            throws ServerFullException, EngineUnavailableException, QuotaExceededException {
        // A lab started through another replica is the learner's lab too.
        syncOwners(List.of(owner));
        Optional<Lab> existing = liveLabOf(owner, lesson);
        if (existing.isPresent()) {
            existing.get().touch(Instant.now());
            return new StartResult(existing.get(), false);
        }
        // Asked before taking the lock: no lock is held across an engine call. A ready pooled lab needs none (it
        // runs already); should another learner take it first, a fresh start without the engine fails as it would.
        if (!pool.holdsReady(lesson)) {
            EngineStatus engine = runtime.engine();
            if (!engine.reachable()) {
                throw new EngineUnavailableException("cannot reach the Docker engine at " + engine.endpoint() + ": "
                        + engine.error(), null);
            }
        }
        Map<String, String> parameters = topologies.parametersFor(lesson, owner);
        // The lab's creation time, to the microsecond as the registry keeps it, so its terms count from it exactly.
        Instant created = Instant.now().truncatedTo(ChronoUnit.MICROS);
        LabTerms terms = termsFor(owner, lesson, created);
        Lab lab;
        Lab fromPool;
        Lab evicted = null;
        synchronized (labs) {
            existing = liveLabOf(owner, lesson);
            if (existing.isPresent()) {
                existing.get().touch(Instant.now());
                return new StartResult(existing.get(), false);
            }
            fromPool = pool.takeReady(lesson).orElse(null);
            if (fromPool != null) {
                lab = fromPool.claimedBy(owner, parameters, created);
                lab.governedBy(terms);
                try {
                    admission.admit(lab);
                } catch (QuotaExceededException e) {
                    pool.add(fromPool);
                    throw e;
                }
                labs.put(lab.id(), lab);
            } else {
                boolean full = liveCount() >= config.maxRunning() || !queue.isEmpty();
                // A learner comes before a pooled lab nobody asked for yet: that one gives up its slot.
                boolean slotFromPool = full && queue.isEmpty() && pool.size() > 0;
                if (full && !slotFromPool) {
                    // First come, first served: while others wait, a new start waits behind them even if a slot is free.
                    if (queue.isFull()) {
                        throw new ServerFullException(config.maxRunning(), queue.limit());
                    }
                    lab = Lab.queued(newId(), owner, lesson, parameters, topology, created);
                } else {
                    lab = new Lab(newId(), owner, lesson, parameters, topology, created);
                }
                lab.governedBy(terms);
                admission.admit(lab);
                labs.put(lab.id(), lab);
                if (slotFromPool) {
                    evicted = pool.takeForSlot(lesson).orElseThrow();
                } else if (lab.phase() == LabPhase.QUEUED) {
                    queue.add(lab);
                }
            }
        }
        if (fromPool != null) {
            return handOut(fromPool, lab, topology, admission);
        }
        if (evicted != null) {
            retire(evicted, "Stopped to free its slot for a learner's lab.");
        }
        if (poolTarget(lesson) > 0) {
            poolMisses.increment();
        }
        if (lab.phase() == LabPhase.QUEUED) {
            // Recorded once it leaves the queue: a queued lab holds nothing a restart would need to find again.
            startQueued();
            return new StartResult(lab, true);
        }
        begin(lab);
        return new StartResult(lab, true);
    }

    /**
     * Makes the claim of a pooled lab durable: the database hands it to the learner only if no one else (another
     * server on the same database) claimed it first. A lost claim starts over: another pooled lab, or a fresh start.
     */
    private StartResult handOut(Lab pooled, Lab claimed, Topology topology, StartAdmission admission)
            throws ServerFullException, EngineUnavailableException, QuotaExceededException {
        boolean took;
        try {
            took = registry.claim(claimed.record());
        } catch (RuntimeException e) {
            // Not recorded as the learner's, so not handed out: the pooled lab waits for the next Start.
            labs.remove(claimed.id());
            claimed.failed("The lab could not be recorded: " + e.getMessage(), Instant.now());
            pool.add(pooled);
            throw e;
        }
        if (!took) {
            labs.remove(claimed.id());
            claimed.stopped("Claimed by another server first.", Instant.now());
            LOG.infof("pooled lab %s was claimed by another server first", claimed.id());
            return startOrGet(claimed.owner(), claimed.lesson(), topology, admission);
        }
        poolHandouts.increment();
        LOG.infof("lab %s (%s) handed from the pool to %s", claimed.id(), claimed.lesson(), claimed.owner());
        refillPoolSoon();
        return new StartResult(claimed, true);
    }

    /**
     * The terms of a lab created at {@code createdAt}: a source's (a workshop event's) if one has some, else the
     * server's; never ending later than the server's maximum lifetime, which the containers' expiry labels hold. A
     * pooled lab (no owner yet) has the server's: it gets its learner's terms when claimed.
     */
    private LabTerms termsFor(String owner, String lesson, Instant createdAt) {
        LabTerms server = new LabTerms(config.idleTimeout(), createdAt.plus(config.maxLifetime()),
                "Stopped after reaching the maximum lab lifetime of " + config.maxLifetime().toHours() + " h.");
        if (owner == null) {
            return server;
        }
        for (LabTermsSource source : termSources) {
            try {
                Optional<LabTerms> terms = source.termsFor(owner, lesson, createdAt);
                if (terms.isPresent()) {
                    return terms.get().within(server);
                }
            } catch (RuntimeException e) {
                // The server's terms still bound the lab; a lookup that failed must not keep a learner from working.
                LOG.errorf("could not look up the terms of %s's lab of %s, the server's apply: %s", owner, lesson,
                        e.getMessage());
            }
        }
        return server;
    }

    /** Records the lab and hands its start to a worker; unrecorded, it is not started. */
    private void begin(Lab lab) {
        try {
            registry.save(lab.record());
        } catch (RuntimeException e) {
            // Not recorded, so not acknowledged: the lab is not started (and no longer counts against any quota).
            lab.failed("The lab could not be recorded: " + e.getMessage(), Instant.now());
            labs.remove(lab.id());
            pool.remove(lab);
            throw e;
        }
        startingHere.add(lab.id());
        workers.submit(() -> runStart(lab));
    }

    /** Starts queued labs, oldest first, while slots are free. */
    private void startQueued() {
        List<Lab> next;
        synchronized (labs) {
            next = queue.take(Math.max(0, config.maxRunning() - liveCount()));
        }
        for (Lab lab : next) {
            queueWaits.record(Duration.between(lab.createdAt(), Instant.now()));
            try {
                begin(lab);
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
            queue.slotFreed(Instant.now());
        }
        startQueued();
        refillPoolSoon();
    }

    /**
     * Refills the pool on a worker, so that the caller does not wait for it: after a stop or a hand-out, or when
     * the reservations changed (a workshop created).
     */
    public void refillPoolSoon() {
        try {
            workers.submit(this::refillPool);
        } catch (RejectedExecutionException e) {
            LOG.debug("not refilling the pool: the server is stopping");
        }
    }

    /** How many labs the pool keeps for the lesson, as of the latest refill (which reads the reservations). */
    private int poolTarget(String lesson) {
        return poolTargets.getOrDefault(lesson, poolSizes.getOrDefault(lesson, 0));
    }

    /** {@code tclab.pool} plus what is reserved (workshops): lesson slug to labs to keep pooled. */
    private Map<String, Integer> readPoolTargets() {
        Map<String, Integer> targets = new HashMap<>(poolSizes);
        for (PoolReservations source : reservations) {
            try {
                source.reservedLabs().forEach((lesson, n) -> targets.merge(lesson, Math.max(0, n), Integer::sum));
            } catch (RuntimeException e) {
                LOG.warnf("cannot read the labs reserved for the pool now: %s", e.getMessage());
            }
        }
        targets.values().removeIf(n -> n <= 0);
        poolTargets = Map.copyOf(targets);
        return targets;
    }

    /**
     * Brings the warm pool to its targets: stops pooled labs beyond them or unclaimed for a whole lifetime (their
     * learner must still get a full one), and starts new ones while slots are free and nobody waits in the queue.
     * Idempotent; run after every hand-out, whenever a lab ends, at start and at every cull.
     */
    public void refillPool() {
        Instant now = Instant.now();
        Map<String, Integer> targets = readPoolTargets();
        for (Lab stale : pool.takeSurplusAndStale(targets, now, config.maxLifetime())) {
            retire(stale, "Stopped: the pool keeps fewer labs of this lesson now, or it waited a whole lifetime.");
        }
        if (targets.isEmpty() || !runtime.engine().reachable()) {
            return;
        }
        Map<String, Topology> poolable = new HashMap<>();
        targets.keySet().forEach(lesson -> {
            Topology topology = topologyOf(lesson);
            if (topology != null && WarmPool.poolable(topology)) {
                poolable.put(lesson, topology);
            } else if (unpoolableWarned.add(lesson)) {
                LOG.warnf("not pooling labs of '%s': %s", lesson, topology == null
                        ? "no working lesson has this name" : "its lab.yml names a parameter ({{...}})");
            }
        });
        List<Lab> toStart = new ArrayList<>();
        synchronized (labs) {
            for (Map.Entry<String, Topology> lesson : poolable.entrySet()) {
                int missing = targets.get(lesson.getKey()) - pool.count(lesson.getKey());
                for (; missing > 0 && liveCount() < config.maxRunning() && queue.isEmpty(); missing--) {
                    Lab lab = Lab.pooled(newId(), lesson.getKey(), lesson.getValue(), now);
                    lab.governedBy(termsFor(null, lab.lesson(), lab.createdAt()));
                    pool.add(lab);
                    toStart.add(lab);
                }
            }
        }
        for (Lab lab : toStart) {
            try {
                begin(lab);
            } catch (RuntimeException e) {
                LOG.warnf("could not start a pooled lab of %s: %s", lab.lesson(), e.getMessage());
            }
        }
    }

    /** Stops a lab taken out of the pool; its slot is free at once (a queued lab may take it). */
    private void retire(Lab pooled, String why) {
        LabPhase was = pooled.stopped(why, Instant.now());
        if (was == null) {
            return;
        }
        LOG.infof("pooled lab %s (%s): %s", pooled.id(), pooled.lesson(), why);
        record(pooled);
        // One still starting is removed by its start worker once the start returns (see runStart).
        if (was == LabPhase.RUNNING) {
            workers.submit(() -> {
                try {
                    runtime.stop(pooled.id());
                } catch (EngineUnavailableException e) {
                    LOG.warnf("could not stop pooled lab %s: %s", pooled.id(), e.getMessage());
                }
            });
        }
        startQueued();
    }

    /** Labs in the warm pool, starting or ready; each holds a slot. */
    public int pooledCount() {
        return pool.size();
    }

    /** Ready labs in the warm pool for the lesson. */
    public int pooledReady(String lesson) {
        return (int) pool.all().stream().filter(l -> l.lesson().equals(lesson) && l.phase() == LabPhase.RUNNING)
                .count();
    }

    /** Where a queued lab stands in the start queue; empty when it is not queued. */
    public Optional<StartQueue.Spot> queueSpot(Lab lab) {
        return lab.phase() == LabPhase.QUEUED ? queue.spotOf(lab, Instant.now()) : Optional.empty();
    }

    /** How many labs wait in the start queue. */
    public int queuedCount() {
        return queue.size();
    }

    private Optional<Lab> liveLabOf(String owner, String lesson) {
        return labs.values().stream()
                .filter(l -> l.owner().equals(owner) && l.lesson().equals(lesson) && l.phase().live())
                .findFirst();
    }

    private void runStart(Lab lab) {
        LabSpec spec = lab.pooled() ? new LabSpec(lab.id(), lab.topology(), LabSpec.POOL_OWNER, lab.lesson(), true)
                : new LabSpec(lab.id(), lab.topology(), lab.owner(), lab.lesson());
        long began = System.nanoTime();
        String outcome = "failed";
        try {
            runtime.start(spec, (stage, detail) -> lab.stageReached(stage));
            outcome = "ready";
            if (lab.ready(Instant.now())) {
                record(lab);
                LOG.infof("lab %s (%s) of %s is ready", lab.id(), lab.lesson(), lab.pooled() ? "the pool" : lab.owner());
            } else {
                // Stopped while starting: the stop ran before our containers existed, so remove them now.
                runtime.stop(lab.id());
            }
        } catch (LabStartException | EngineUnavailableException | RuntimeException e) {
            LOG.warnf("lab %s (%s) failed to start: %s", lab.id(), lab.lesson(), e.getMessage());
            if (lab.failed("The lab could not start: " + e.getMessage(), Instant.now())) {
                record(lab);
                if (lab.pooled()) {
                    // Not refilled until the next cull: a lesson whose lab cannot start must not start one in a loop.
                    pool.remove(lab);
                    startQueued();
                } else {
                    ended.fire(new LabEnded(lab.id()));
                }
            }
        } finally {
            startingHere.remove(lab.id());
            Timer.builder("tclab.lab.start").description("Time a lab start took on the engine, from its worker to ready")
                    .tag("outcome", outcome).publishPercentileHistogram().register(metrics)
                    .record(System.nanoTime() - began, TimeUnit.NANOSECONDS);
        }
    }

    /** Writes the lab's current state to the registry; a failure is logged (the next phase change writes again). */
    private void record(Lab lab) {
        try {
            registry.save(lab.record());
        } catch (RuntimeException e) {
            LOG.errorf("could not record lab %s as %s: %s", lab.id(), lab.phase(), e.getMessage());
        }
    }

    /**
     * The lab, if it exists and belongs to {@code owner}. Looking does not count as using it: an open page that
     * polls must not keep a lab from idle culling; starting, typing and checking do ({@link Lab#touch}).
     */
    public Lab get(String labId, String owner) throws LabNotFoundException {
        Lab lab = synced(labId);
        if (lab == null || !lab.owner().equals(owner)) {
            throw new LabNotFoundException(labId);
        }
        return lab;
    }

    /** A running lab of {@code owner}, for terminals and checks. */
    public Lab getRunning(String labId, String owner) throws LabNotFoundException {
        Lab lab = get(labId, owner);
        if (lab.phase() != LabPhase.RUNNING) {
            throw new LabNotFoundException(labId);
        }
        return lab;
    }

    /** Every lab of one learner, newest first. */
    public List<Lab> labsOf(String owner) {
        return labsOf(List.of(owner)).getOrDefault(owner, List.of());
    }

    /** Every lab of each of these learners, newest first: one registry read for a whole class. */
    public Map<String, List<Lab>> labsOf(Collection<String> owners) {
        syncOwners(owners);
        Set<String> wanted = Set.copyOf(owners);
        return labs.values().stream().filter(l -> wanted.contains(l.owner()))
                .sorted((a, b) -> b.createdAt().compareTo(a.createdAt()))
                .collect(Collectors.groupingBy(Lab::owner));
    }

    /** Every lab on this server, for the host's dashboard. */
    public List<Lab> all() {
        return List.copyOf(labs.values());
    }

    /**
     * This replica's copy of the lab brought up to date with the registry (another replica may have started,
     * stopped or used it); null when neither knows it. While the database does not answer, the copy as it is.
     */
    private Lab synced(String labId) {
        Optional<LabRecord> kept;
        try {
            kept = registry.find(labId);
        } catch (RuntimeException e) {
            LOG.debugf("cannot read lab %s from the registry: %s", labId, e.getMessage());
            return labs.get(labId);
        }
        kept.ifPresent(this::takeRecord);
        return labs.get(labId);
    }

    /** Brings this replica's copy of these learners' labs up to date with the registry. */
    private void syncOwners(Collection<String> owners) {
        if (owners.isEmpty()) {
            return;
        }
        try {
            Set<String> live = new HashSet<>();
            for (LabRecord record : registry.liveOf(owners)) {
                live.add(record.id());
                takeRecord(record);
            }
            // Live here but not in the registry any more: another replica ended it.
            Set<String> wanted = Set.copyOf(owners);
            labs.values().stream().filter(l -> wanted.contains(l.owner()) && l.phase().live())
                    .filter(l -> !live.contains(l.id()) && l.phase() != LabPhase.QUEUED).map(Lab::id).toList()
                    .forEach(this::synced);
        } catch (RuntimeException e) {
            LOG.debugf("cannot read the labs of %d learners from the registry: %s", owners.size(), e.getMessage());
        }
    }

    /** Whether the registry holds the lab live with no owner: another replica's pooled lab, not an orphan. */
    private boolean pooledElsewhere(String labId) {
        try {
            return registry.find(labId).filter(r -> r.owner() == null && r.phase().live()).isPresent();
        } catch (RuntimeException e) {
            // Not known to be anyone's: the reaper treats it as it did before replicas.
            return false;
        }
    }

    /** Takes a record another replica wrote: a lab new to this replica, or a newer state of a known one. */
    private void takeRecord(LabRecord record) {
        if (record.owner() == null) {
            // Another replica's pooled lab: its own until a learner claims it (then it has an owner).
            return;
        }
        Lab known = labs.get(record.id());
        if (known == null) {
            Topology topology = topologyOf(record.lesson());
            Lab lab = Lab.restored(record, topology == null ? new Topology(record.lesson(), Map.of(), List.of())
                    : topology, Instant.now());
            lab.governedBy(termsFor(record.owner(), record.lesson(), record.createdAt()));
            lab.synced(record);
            labs.putIfAbsent(lab.id(), lab);
        } else if (known.synced(record)) {
            LOG.infof("lab %s ended on another replica: %s", known.id(), known.reason());
            ended.fire(new LabEnded(known.id()));
        }
    }

    /** Labs holding a slot of the server's maximum: learners' starting and running labs, and the pool's. */
    public int liveCount() {
        return (int) labs.values().stream().filter(l -> l.phase().holdsSlot()).count() + pool.size();
    }

    /** How many labs are in {@code phase} now. */
    public int countIn(LabPhase phase) {
        return (int) labs.values().stream().filter(l -> l.phase() == phase).count();
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
        Topology topology = topologies.topologyFor(old.lesson()).orElseThrow(() -> new TopologyException(List.of(
                new FileProblem(old.lesson(), 0, "lesson", "the lesson is gone, so its lab cannot start again"))));
        stopLab(old, why);
        return startOrGet(owner, old.lesson(), topology, admission);
    }

    private void stopLab(Lab lab, String why) throws EngineUnavailableException {
        LabPhase was = lab.stopped(why, Instant.now());
        if (was == LabPhase.QUEUED) {
            queue.remove(lab);
        }
        if (was != null) {
            record(lab);
            ended.fire(new LabEnded(lab.id()));
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
    @Scheduled(every = "${tclab.lab.cull-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void cullScheduled() {
        cull(Instant.now());
    }

    void cull(Instant now) {
        Set<String> watched = watchers.watchedLabs();
        for (Lab lab : labs.values()) {
            if (watched.contains(lab.id())) {
                lab.watched(now);
            }
            if (lab.phase() == LabPhase.STARTING && !startingHere.contains(lab.id())) {
                failAbandonedStart(lab, now);
                continue;
            }
            if (lab.phase() != LabPhase.RUNNING || shareUse(lab).phase() != LabPhase.RUNNING
                    || refresh(lab).phase() != LabPhase.RUNNING) {
                continue;
            }
            String why = null;
            LabTerms terms = lab.terms();
            // Another replica may have seen it used or open more recently: then its record of that counts.
            Instant seenAnywhere = lab.lastSeenAnywhere();
            boolean seenElsewhere = seenAnywhere != null && seenAnywhere.isAfter(lab.lastUsedOrWatched());
            Instant usedAt = seenElsewhere ? seenAnywhere : lab.lastActivity();
            Instant usedOrWatchedAt = seenElsewhere ? seenAnywhere : lab.lastUsedOrWatched();
            if (Duration.between(usedAt, now).compareTo(terms.idleTimeout()) > 0) {
                why = "Stopped after " + terms.idleTimeout().toMinutes() + " idle minutes.";
            } else if (!now.isBefore(terms.endsAt())) {
                why = terms.endReason();
            } else if (Duration.between(usedOrWatchedAt, now).compareTo(config.unwatchedTimeout()) > 0) {
                why = "Stopped after " + config.unwatchedTimeout().toMinutes()
                        + " minutes with no page open on it. Start it again from the lesson.";
            }
            if (why != null) {
                LOG.infof("culling lab %s: %s", lab.id(), why);
                stopQuietly(lab, why);
            }
        }
        cullPool();
        refillPool();
        removeExpiredLabs(now);
        forgetOldLabs(now);
    }

    /** Notices pooled labs whose containers died, so they free their slot and the refill replaces them. */
    private void cullPool() {
        for (Lab lab : pool.all()) {
            if (lab.phase() == LabPhase.RUNNING && refresh(lab).phase() != LabPhase.RUNNING) {
                pool.remove(lab);
            }
        }
    }

    /**
     * Writes this replica's latest use of the lab to the registry and reads back what the others wrote (a stop, a
     * later use), so replicas cull a lab by what all of them saw.
     */
    private Lab shareUse(Lab lab) {
        try {
            registry.seen(lab.id(), lab.lastUsedOrWatched());
        } catch (RuntimeException e) {
            LOG.debugf("cannot record the last use of lab %s: %s", lab.id(), e.getMessage());
        }
        Lab fresh = synced(lab.id());
        return fresh == null ? lab : fresh;
    }

    /**
     * A lab STARTING that no worker of this replica starts: another replica starts it, or did until it died. Past
     * the start timeout (and a margin) with the registry still saying STARTING, nobody will finish it.
     */
    private void failAbandonedStart(Lab lab, Instant now) {
        Lab fresh = synced(lab.id());
        if (fresh == null || fresh.phase() != LabPhase.STARTING
                || Duration.between(fresh.createdAt(), now).compareTo(config.startTimeout().plusMinutes(1)) <= 0) {
            return;
        }
        if (fresh.failed("The server restarted while this lab was starting. Start it again.", now)) {
            record(fresh);
            ended.fire(new LabEnded(fresh.id()));
            stopQuietly(fresh, fresh.reason());
        }
    }

    private void removeExpiredLabs(Instant now) {
        try {
            Set<String> removed = runtime.removeExpiredLabs(now);
            if (!removed.isEmpty()) {
                LOG.infof("removed labs past their expiry, left by a tclab process that is gone: %s", removed);
            }
        } catch (EngineUnavailableException e) {
            LOG.debugf("cannot look for expired labs now: %s", e.getMessage());
        }
    }

    /**
     * Adopts the recorded labs that are still alive (see {@link #adoptRecorded}), then removes containers on the
     * engine that belong to this instance but to no live lab: left by a crash, or by a stop while the engine was
     * down. Run when the app starts serving and when the engine comes back.
     */
    public void reapOrphans() {
        adoptRecorded();
        try {
            Set<String> onEngine = runtime.labsOnEngine();
            for (String labId : onEngine) {
                // Read again: another replica may have recorded a new lab since adoptRecorded read the registry.
                Lab lab = labs.containsKey(labId) ? labs.get(labId) : pool.find(labId).orElseGet(() -> synced(labId));
                if (lab == null && pooledElsewhere(labId)) {
                    continue;
                }
                if (lab == null || !lab.phase().live()) {
                    LOG.infof("reaping orphaned lab %s", labId);
                    runtime.stop(labId);
                }
            }
        } catch (EngineUnavailableException e) {
            LOG.debugf("cannot reap orphans now: %s", e.getMessage());
        }
    }

    void adoptAtStart(@Observes StartupEvent event) {
        adoptRecorded();
        refillPoolSoon();
    }

    /**
     * Takes back the labs the registry says are live but this process does not know (it restarted): a running lab
     * whose nodes all run is adopted as it is (same id, owner, lesson, parameters, start time); its samplers and
     * shells start again when a page asks for them. A lab that was still starting, is past its maximum lifetime,
     * or lost a node is recorded as ended, with the reason for the learner, and its containers are left to
     * {@link #reapOrphans}. While the engine does not answer, a running lab is adopted on its record's word and
     * checked by the cull once the engine is back.
     */
    public void adoptRecorded() {
        List<LabRecord> records;
        try {
            records = registry.live();
        } catch (RuntimeException e) {
            LOG.errorf("cannot read the lab registry to adopt labs: %s", e.getMessage());
            return;
        }
        long start = System.nanoTime();
        int looked = 0;
        // Asked once: with the engine down, each status call would wait out the connect timeout.
        Boolean engineUp = null;
        for (LabRecord record : records) {
            if (labs.containsKey(record.id()) || pool.find(record.id()).isPresent()) {
                continue;
            }
            if (engineUp == null) {
                engineUp = runtime.engine().reachable();
            }
            adopt(record, engineUp, Instant.now());
            looked++;
        }
        if (looked > 0) {
            LOG.infof("looked at %d recorded labs in %d ms", looked, (System.nanoTime() - start) / 1_000_000);
        }
    }

    private void adopt(LabRecord record, boolean engineUp, Instant now) {
        Topology topology = topologyOf(record.lesson());
        Topology shown = topology == null ? new Topology(record.lesson(), Map.of(), List.of()) : topology;
        Lab lab = Lab.restored(record, shown, now);
        lab.governedBy(termsFor(record.owner(), record.lesson(), record.createdAt()));
        String stopped = null;
        String failed;
        if (record.phase() == LabPhase.STARTING
                && Duration.between(record.createdAt(), now).compareTo(config.startTimeout()) <= 0) {
            // Another replica is starting it: it records the outcome; the cull fails it if nobody ever does.
            failed = null;
        } else if (record.phase() == LabPhase.STARTING) {
            failed = "The server restarted while this lab was starting. Start it again.";
        } else if (!now.isBefore(lab.terms().endsAt())) {
            failed = null;
            stopped = lab.terms().endReason();
        } else if (topology == null) {
            failed = "The lesson '" + record.lesson() + "' of this lab is gone or broken. Start it again once fixed.";
        } else {
            failed = deadAfterRestart(record.id(), engineUp);
        }
        if (failed != null) {
            lab.failed(failed, now);
        } else if (stopped != null) {
            lab.stopped(stopped, now);
        }
        String whose = lab.pooled() ? "the pool" : record.owner();
        if (lab.phase().live()) {
            LOG.infof("adopted lab %s (%s) of %s, running since %s", record.id(), record.lesson(), whose,
                    record.readyAt());
        } else {
            LOG.infof("lab %s of %s not adopted: %s", record.id(), whose, lab.reason());
        }
        if (!lab.pooled()) {
            labs.putIfAbsent(lab.id(), lab);
        } else if (lab.phase().live()) {
            pool.add(lab);
        }
        record(lab);
    }

    /**
     * Why the recorded lab cannot be adopted because a node is gone or dead, or null when all run. While the engine
     * does not answer, the record's word is taken: the learner keeps their lab (no duplicate start meanwhile), and
     * the cull's refresh marks it failed if its nodes turn out dead once the engine answers.
     */
    private String deadAfterRestart(String labId, boolean engineUp) {
        if (!engineUp) {
            LOG.infof("adopting lab %s unchecked: the engine does not answer", labId);
            return null;
        }
        try {
            List<NodeStatus> nodes = runtime.status(labId);
            Optional<NodeStatus> dead = nodes.stream().filter(n -> !n.running()).findFirst();
            if (nodes.isEmpty() || dead.isPresent()) {
                return "The lab did not survive the server's restart ("
                        + dead.map(n -> "node " + n.node() + " is " + n.state()).orElse("its containers are gone")
                        + "). Start it again.";
            }
            return null;
        } catch (EngineUnavailableException e) {
            LOG.infof("adopting lab %s unchecked: %s", labId, e.getMessage());
            return null;
        }
    }

    private Topology topologyOf(String lesson) {
        try {
            return topologies.topologyFor(lesson).orElse(null);
        } catch (TopologyException e) {
            return null;
        }
    }

    /**
     * Marks a running lab whose containers are gone or exited as failed, so the learner is told instead of left
     * hanging, and removes what is left of it.
     */
    public Lab refresh(Lab lab) {
        if (lab.phase() != LabPhase.RUNNING) {
            return lab;
        }
        try {
            List<NodeStatus> nodes = runtime.status(lab.id());
            Optional<NodeStatus> dead = nodes.stream().filter(n -> !n.running()).findFirst();
            if (nodes.isEmpty() || dead.isPresent()) {
                String which = dead.map(n -> "node " + n.node() + " is " + n.state()).orElse("its containers are gone");
                if (lab.failed("The lab died (" + which + "). Stop it and start a new one.", Instant.now())) {
                    LOG.infof("lab %s died (%s)", lab.id(), which);
                    record(lab);
                    ended.fire(new LabEnded(lab.id()));
                }
                runtime.stop(lab.id());
            }
        } catch (EngineUnavailableException e) {
            // The engine being down is reported by the system status; the lab may come back with it.
        }
        return lab;
    }

    private void forgetOldLabs(Instant now) {
        labs.values().removeIf(l -> !l.phase().live() && Duration.between(l.lastActivity(), now).toHours() >= 24);
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
            labs.values().stream().filter(l -> l.phase() == LabPhase.RUNNING)
                    .forEach(l -> workers.submit(() -> stopQuietly(l, "The server stopped.")));
            pool.all().forEach(l -> {
                pool.remove(l);
                retire(l, "The server stopped.");
            });
        }
        workers.shutdown();
        try {
            workers.awaitTermination(8, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String newId() {
        byte[] bytes = new byte[5];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
