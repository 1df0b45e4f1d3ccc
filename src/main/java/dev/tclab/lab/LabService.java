package dev.tclab.lab;

import dev.tclab.config.TclabConfig;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Owns every lab of this server: starts them in the background, enforces one lab per learner and lesson and the
 * server's maximum, checks ownership, and culls idle, expired, dead and orphaned labs.
 */
@ApplicationScoped
public class LabService {

    private static final Logger LOG = Logger.getLogger(LabService.class);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final LabRuntime runtime;
    private final TclabConfig.Lab config;
    private final Map<String, Lab> labs = new ConcurrentHashMap<>();
    /** Docker calls block, so starts and stops run here, never on the event loop. */
    private final ExecutorService workers = Executors.newFixedThreadPool(4, WorkerThreads.named("tclab-lab-worker"));

    private final Event<LabEnded> ended;

    public LabService(LabRuntime runtime, TclabConfig config, Event<LabEnded> ended) {
        this.runtime = runtime;
        this.config = config.lab();
        this.ended = ended;
    }

    /**
     * Returns the learner's live lab for the lesson, or begins starting a new one (returned in STARTING).
     * {@code created} tells which.
     *
     * @throws ServerFullException        when the server already runs its maximum of labs
     * @throws EngineUnavailableException when the container engine does not answer
     * @throws QuotaExceededException     when {@code admission} refuses the new lab
     */
    public record StartResult(Lab lab, boolean created) {
    }

    public StartResult startOrGet(String owner, String lesson, Topology topology, StartAdmission admission)
            throws ServerFullException, EngineUnavailableException, QuotaExceededException {
        synchronized (labs) {
            Optional<Lab> existing = labs.values().stream()
                    .filter(l -> l.owner().equals(owner) && l.lesson().equals(lesson) && l.phase().live())
                    .findFirst();
            if (existing.isPresent()) {
                existing.get().touch(Instant.now());
                return new StartResult(existing.get(), false);
            }
            if (liveCount() >= config.maxRunning()) {
                throw new ServerFullException(config.maxRunning());
            }
            EngineStatus engine = runtime.engine();
            if (!engine.reachable()) {
                throw new EngineUnavailableException("cannot reach the Docker engine at " + engine.endpoint() + ": "
                        + engine.error(), null);
            }
            Lab lab = new Lab(newId(), owner, lesson, topology, Instant.now());
            admission.admit(lab);
            labs.put(lab.id(), lab);
            workers.submit(() -> runStart(lab));
            return new StartResult(lab, true);
        }
    }

    private void runStart(Lab lab) {
        LabSpec spec = new LabSpec(lab.id(), lab.topology(), lab.owner(), lab.lesson());
        try {
            runtime.start(spec, (stage, detail) -> lab.stageReached(stage));
            if (lab.phase() == LabPhase.STARTING) {
                lab.ready(Instant.now());
                LOG.infof("lab %s (%s) of %s is ready", lab.id(), lab.lesson(), lab.owner());
            } else {
                // Stopped while starting: the stop ran before our containers existed, so remove them now.
                runtime.stop(lab.id());
            }
        } catch (LabStartException | EngineUnavailableException | RuntimeException e) {
            LOG.warnf("lab %s (%s) failed to start: %s", lab.id(), lab.lesson(), e.getMessage());
            lab.failed("The lab could not start: " + e.getMessage());
            ended.fire(new LabEnded(lab.id()));
        }
    }

    /**
     * The lab, if it exists and belongs to {@code owner}. Looking does not count as using it: an open page that
     * polls must not keep a lab from idle culling; starting, typing and checking do ({@link Lab#touch}).
     */
    public Lab get(String labId, String owner) throws LabNotFoundException {
        Lab lab = labs.get(labId);
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
        return labs.values().stream().filter(l -> l.owner().equals(owner))
                .sorted((a, b) -> b.createdAt().compareTo(a.createdAt())).toList();
    }

    /** Every lab on this server, for the host's dashboard. */
    public List<Lab> all() {
        return List.copyOf(labs.values());
    }

    public int liveCount() {
        return (int) labs.values().stream().filter(l -> l.phase().live()).count();
    }

    public int maxRunning() {
        return config.maxRunning();
    }

    /** Stops the learner's lab. Idempotent. */
    public void stop(String labId, String owner) throws LabNotFoundException, EngineUnavailableException {
        Lab lab = get(labId, owner);
        stopLab(lab, "Stopped by the learner.");
    }

    private void stopLab(Lab lab, String why) throws EngineUnavailableException {
        boolean wasRunning = lab.phase() == LabPhase.RUNNING;
        if (lab.phase().live()) {
            lab.stopped(why);
            ended.fire(new LabEnded(lab.id()));
        }
        // A lab still starting is removed by its start worker once the start returns (see runStart).
        if (wasRunning || lab.phase() == LabPhase.FAILED) {
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
        for (Lab lab : labs.values()) {
            if (lab.phase() != LabPhase.RUNNING || refresh(lab).phase() != LabPhase.RUNNING) {
                continue;
            }
            String why = null;
            if (Duration.between(lab.lastActivity(), now).compareTo(config.idleTimeout()) > 0) {
                why = "Stopped after " + config.idleTimeout().toMinutes() + " idle minutes.";
            } else if (Duration.between(lab.createdAt(), now).compareTo(config.maxLifetime()) > 0) {
                why = "Stopped after reaching the maximum lab lifetime of " + config.maxLifetime().toHours() + " h.";
            }
            if (why != null) {
                LOG.infof("culling lab %s: %s", lab.id(), why);
                stopQuietly(lab, why);
            }
        }
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
     * Removes containers on the engine that belong to this instance but to no live lab: left by a crash, or by a
     * stop while the engine was down. Run when the app starts serving and when the engine comes back.
     */
    public void reapOrphans() {
        try {
            Set<String> onEngine = runtime.labsOnEngine();
            for (String labId : onEngine) {
                Lab lab = labs.get(labId);
                if (lab == null || !lab.phase().live()) {
                    LOG.infof("reaping orphaned lab %s", labId);
                    runtime.stop(labId);
                }
            }
        } catch (EngineUnavailableException e) {
            LOG.debugf("cannot reap orphans now: %s", e.getMessage());
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
                lab.failed("The lab died (" + which + "). Stop it and start a new one.");
                LOG.infof("lab %s died (%s)", lab.id(), which);
                ended.fire(new LabEnded(lab.id()));
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

    void onShutdown(@Observes ShutdownEvent event) {
        labs.values().stream().filter(l -> l.phase() == LabPhase.RUNNING)
                .forEach(l -> workers.submit(() -> stopQuietly(l, "The server stopped.")));
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
