package dev.tclab.lab;

import dev.tclab.config.TclabConfig;
import dev.tclab.yaml.FileProblem;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Owns every learner's lab of this server: starts them (or queues them while the server is full, or hands them one
 * from the warm pool), enforces one lab per learner and lesson and the server's maximum, checks ownership, adopts
 * recorded labs after a restart, and culls idle, expired, dead and orphaned labs. The pool is kept by
 * {@link WarmPoolKeeper}, starts run in {@link LabStarter}, and the copy of other replicas' labs is kept in step by
 * {@link ReplicaSync}.
 * <p>
 * Several replicas may share one database and one engine: the registry is then the truth, and this map is this
 * replica's copy of it (see docs/SCALING.md).
 */
@ApplicationScoped
public class LabService {

    private static final Logger LOG = Logger.getLogger(LabService.class);

    private final LabRuntime runtime;
    private final TclabConfig.Lab config;
    private final Map<String, Lab> labs = new ConcurrentHashMap<>();
    private final StartQueue queue;

    private final Event<LabEnded> ended;
    private final Event<LabAdopted> adopted;
    private final LabRegistry registry;
    private final TopologySource topologies;
    private final LabWatchers watchers;
    /** How long labs waited in the start queue, for operators at /q/metrics. */
    private final Timer queueWaits;
    private final WarmPool pool = new WarmPool();
    private final LabTermsPolicy terms;
    private final LabStarter starter;
    private final WarmPoolKeeper poolKeeper;
    private final ReplicaSync replicas;
    private final Event<PooledLabReady> pooledReady;

    public LabService(LabRuntime runtime, TclabConfig config, Event<LabEnded> ended, Event<LabAdopted> adopted,
                      Event<PooledLabReady> pooledReady,
                      LabRegistry registry, TopologySource topologies, MeterRegistry metrics, LabWatchers watchers,
                      Instance<PoolReservations> reservations, Instance<LabTermsSource> termSources) {
        this.runtime = runtime;
        this.config = config.lab();
        this.ended = ended;
        this.adopted = adopted;
        this.pooledReady = pooledReady;
        this.registry = registry;
        this.topologies = topologies;
        this.watchers = watchers;
        this.queueWaits = Timer.builder("tclab.lab.queue.wait").description("Time a lab waited in the start queue")
                .publishPercentileHistogram().register(metrics);
        this.queue = new StartQueue(this.config.queueSize());
        this.terms = new LabTermsPolicy(this.config, termSources);
        this.starter = new LabStarter(runtime, registry, metrics, this.config.concurrentStarts(), this::forget,
                this::startFailed,
                this::pooledLabReady);
        this.poolKeeper = new WarmPoolKeeper(pool, starter, runtime, registry, config, terms, this::topologyOf,
                reservations, metrics, labs, () -> liveCount() < this.config.maxRunning() && queue.isEmpty(),
                this::startQueued, () -> labs.values().stream()
                        .anyMatch(l -> l.phase() == LabPhase.STARTING || l.phase() == LabPhase.QUEUED));
        this.replicas = new ReplicaSync(registry, labs, record -> restored(record, topologyOf(record.lesson()),
                Instant.now()), starter, ended, adopted);
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
        poolKeeper.startPressed();
        // A lab started through another replica is the learner's lab too.
        replicas.syncOwners(List.of(owner));
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
        LabTerms labTerms = terms.termsFor(owner, lesson, created);
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
                lab.governedBy(labTerms);
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
                    lab = Lab.queued(LabIds.next(), owner, lesson, parameters, topology, created);
                } else {
                    lab = new Lab(LabIds.next(), owner, lesson, parameters, topology, created);
                }
                lab.governedBy(labTerms);
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
            poolKeeper.retire(evicted, "Stopped to free its slot for a learner's lab.");
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
            claimed.failed("The lab could not be recorded: " + e.getMessage(), Instant.now());
            throw e;
        }
        if (!took) {
            labs.remove(claimed.id());
            claimed.stopped("Claimed by another server first.", Instant.now());
            return startOrGet(claimed.owner(), claimed.lesson(), topology, admission);
        }
        return new StartResult(claimed, true);
    }

    /** A pooled lab is ready: its shells start, and the pool goes on refilling (a few labs at a time). */
    private void pooledLabReady(Lab lab) {
        pooledReady.fireAsync(new PooledLabReady(lab.id(), lab.topology().interactiveNodes()));
        poolKeeper.refillSoon();
    }

    /** A lab that could not be recorded, so was never started: it holds nothing. */
    private void forget(Lab lab) {
        labs.remove(lab.id());
        pool.remove(lab);
    }

    /** A lab whose start failed: a learner's ends; a pooled one leaves the pool (refilled at the next cull). */
    private void startFailed(Lab lab) {
        if (lab.pooled()) {
            // Not refilled until the next cull: a lesson whose lab cannot start must not start one in a loop.
            pool.remove(lab);
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
            queue.remove(lab);
            lab.failed("The lab could not be recorded: " + e.getMessage(), Instant.now());
            labs.remove(lab.id());
            startQueued();
            throw e;
        }
        queue.recorded(lab);
        startQueued();
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
            queue.slotFreed(Instant.now());
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
        Set<String> wanted = Set.copyOf(owners);
        return labs.values().stream().filter(l -> wanted.contains(l.owner()))
                .sorted((a, b) -> b.createdAt().compareTo(a.createdAt()))
                .collect(Collectors.groupingBy(Lab::owner));
    }

    /** Every lab on this server, for the host's dashboard. */
    public List<Lab> all() {
        return List.copyOf(labs.values());
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
            starter.record(lab);
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
            if (lab.phase() == LabPhase.STARTING && !starter.startsHere(lab.id())) {
                replicas.failAbandonedStart(lab, now, config.startTimeout())
                        .ifPresent(abandoned -> stopQuietly(abandoned, abandoned.reason()));
                continue;
            }
            if (lab.phase() != LabPhase.RUNNING || replicas.shareUse(lab).phase() != LabPhase.RUNNING
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
                why = "Stopped after being idle for " + DurationWords.of(terms.idleTimeout()) + ".";
            } else if (!now.isBefore(terms.endsAt())) {
                why = terms.endReason();
            } else if (Duration.between(usedOrWatchedAt, now).compareTo(config.unwatchedTimeout()) > 0) {
                why = "Stopped after " + DurationWords.of(config.unwatchedTimeout())
                        + " with no page open on it. Start it again from the lesson.";
            }
            if (why != null) {
                LOG.infof("culling lab %s: %s", lab.id(), why);
                stopQuietly(lab, why);
            }
        }
        poolKeeper.removeDead(lab -> refresh(lab).phase() == LabPhase.RUNNING);
        poolKeeper.refillSoon();
        removeExpiredLabs(now);
        forgetOldLabs(now);
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
                Lab lab = labs.containsKey(labId) ? labs.get(labId)
                        : pool.find(labId).orElseGet(() -> replicas.synced(labId));
                if (lab == null && replicas.pooledElsewhere(labId)) {
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
        poolKeeper.refillSoon();
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
        requeueRecorded();
    }

    /**
     * Puts the starts recorded as queued that this process does not know (it restarted) back in the start queue, in
     * the order they were queued, so that each starts by itself when a slot frees, as acknowledged. One whose lesson
     * is gone fails, saying so; one past its end of life is stopped.
     */
    private void requeueRecorded() {
        List<LabRecord> records;
        try {
            records = registry.queued();
        } catch (RuntimeException e) {
            LOG.errorf("cannot read the lab registry to queue recorded starts again: %s", e.getMessage());
            return;
        }
        Instant now = Instant.now();
        int requeued = 0;
        for (LabRecord record : records) {
            if (record.owner() == null || labs.containsKey(record.id())) {
                continue;
            }
            Topology topology = topologyOf(record.lesson());
            Lab lab = restored(record, topology, now);
            if (topology == null) {
                lab.failed(lessonGone(record.lesson()), now);
            } else if (!now.isBefore(lab.terms().endsAt())) {
                lab.stopped(lab.terms().endReason(), now);
            }
            if (labs.putIfAbsent(lab.id(), lab) != null) {
                continue;
            }
            if (lab.phase() == LabPhase.QUEUED) {
                synchronized (labs) {
                    queue.add(lab);
                    queue.recorded(lab);
                }
                adopted.fire(new LabAdopted(lab));
                requeued++;
            } else {
                LOG.infof("queued lab %s of %s not queued again: %s", lab.id(), lab.owner(), lab.reason());
                starter.record(lab);
            }
        }
        if (requeued > 0) {
            LOG.infof("queued %d recorded starts again, in their order", requeued);
            startQueued();
        }
    }

    private void adopt(LabRecord record, boolean engineUp, Instant now) {
        Topology topology = topologyOf(record.lesson());
        Lab lab = restored(record, topology, now);
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
            failed = lessonGone(record.lesson());
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
            if (labs.putIfAbsent(lab.id(), lab) == null && lab.phase().live()) {
                adopted.fire(new LabAdopted(lab));
            }
        } else if (lab.phase().live()) {
            pool.add(lab);
        }
        starter.record(lab);
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

    private static String lessonGone(String lesson) {
        return "The lesson '" + lesson + "' of this lab is gone or broken. Start it again once fixed.";
    }

    /** A recorded lab as this replica's, with its terms; its topology is an empty one when the lesson is gone. */
    private Lab restored(LabRecord record, Topology topology, Instant now) {
        Lab lab = Lab.restored(record, topology == null ? new Topology(record.lesson(), Map.of(), List.of())
                : topology, now);
        lab.governedBy(terms.termsFor(record.owner(), record.lesson(), record.createdAt()));
        return lab;
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
                    starter.record(lab);
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
                    .forEach(l -> starter.submit(() -> stopQuietly(l, "The server stopped.")));
            pool.all().forEach(l -> {
                pool.remove(l);
                poolKeeper.retire(l, "The server stopped.");
            });
        }
        poolKeeper.shutdown();
        starter.shutdown();
    }
}
