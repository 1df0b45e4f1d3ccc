package dev.tclab.lab;

import dev.tclab.config.TclabConfig;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.LabEngine;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.runtime.NodeStatus;
import dev.tclab.runtime.topology.Topology;
import jakarta.enterprise.event.Event;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * Takes back what a restart left: the labs the registry says are live and the starts it says are queued, and
 * removes the containers on the engine that belong to this instance but to no live lab.
 */
final class LabAdoption {

    private static final Logger LOG = Logger.getLogger(LabAdoption.class);

    private final LabTable labs;
    private final LabStarter starter;
    private final LabRuntime runtime;
    private final LabEngine engine;
    private final LabRegistry registry;
    private final LabFactory factory;
    private final InstantSource clock;
    private final TclabConfig.Lab config;
    private final ReplicaSync replicas;
    private final Event<LabAdopted> adopted;
    /** Starts queued labs while slots are free. */
    private final Runnable startQueued;

    LabAdoption(LabParts parts, ReplicaSync replicas, Event<LabAdopted> adopted, Runnable startQueued) {
        this.labs = parts.table();
        this.starter = parts.starter();
        this.runtime = parts.runtime();
        this.engine = parts.engine();
        this.registry = parts.registry();
        this.factory = parts.factory();
        this.clock = parts.clock();
        this.config = parts.config();
        this.replicas = replicas;
        this.adopted = adopted;
        this.startQueued = startQueued;
    }

    /**
     * Adopts the recorded labs that are still alive (see {@link #adoptRecorded}), then removes containers on the
     * engine that belong to this instance but to no live lab: left by a crash, or by a stop while the engine was
     * down.
     */
    void reapOrphans() {
        adoptRecorded();
        try {
            Set<String> onEngine = engine.labsOnEngine();
            for (String labId : onEngine) {
                // Read again: another replica may have recorded a new lab since adoptRecorded read the registry.
                Lab lab = labs.find(labId).orElseGet(() -> replicas.synced(labId));
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

    /**
     * Takes back the labs the registry says are live but this process does not know (it restarted): a running lab
     * whose nodes all run is adopted as it is (same id, owner, lesson, parameters, start time); its samplers and
     * shells start again when a page asks for them. A lab that was still starting, is past its maximum lifetime,
     * or lost a node is recorded as ended, with the reason for the learner, and its containers are left to
     * {@link #reapOrphans}. While the engine does not answer, a running lab is adopted on its record's word and
     * checked by the cull once the engine is back.
     */
    void adoptRecorded() {
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
            if (labs.find(record.id()).isPresent()) {
                continue;
            }
            if (engineUp == null) {
                engineUp = engine.engine().reachable();
            }
            adopt(record, engineUp, clock.instant());
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
        Instant now = clock.instant();
        int requeued = 0;
        for (LabRecord record : records) {
            if (record.owner() == null || labs.get(record.id()) != null) {
                continue;
            }
            Topology topology = factory.topologyOf(record.lesson());
            Lab lab = factory.restored(record, topology, now);
            if (topology == null) {
                lab.failed(LabFactory.lessonGone(record.lesson()), now);
            } else if (!now.isBefore(lab.terms().endsAt())) {
                lab.stopped(lab.terms().endReason(), now);
            }
            if (!labs.putIfAbsent(lab)) {
                continue;
            }
            if (lab.phase() == LabPhase.QUEUED) {
                labs.requeue(lab);
                adopted.fire(new LabAdopted(lab));
                requeued++;
            } else {
                LOG.infof("queued lab %s of %s not queued again: %s", lab.id(), lab.owner(), lab.reason());
                starter.record(lab);
            }
        }
        if (requeued > 0) {
            LOG.infof("queued %d recorded starts again, in their order", requeued);
            startQueued.run();
        }
    }

    private void adopt(LabRecord record, boolean engineUp, Instant now) {
        Topology topology = factory.topologyOf(record.lesson());
        Lab lab = factory.restored(record, topology, now);
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
            failed = LabFactory.lessonGone(record.lesson());
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
            LOG.infof(
                    "adopted lab %s (%s) of %s, running since %s",
                    record.id(), record.lesson(), whose, record.readyAt());
        } else {
            LOG.infof("lab %s of %s not adopted: %s", record.id(), whose, lab.reason());
        }
        if (!lab.pooled()) {
            if (labs.putIfAbsent(lab) && lab.phase().live()) {
                adopted.fire(new LabAdopted(lab));
            }
        } else if (lab.phase().live()) {
            labs.pool().add(lab);
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
            Optional<String> dead = NodeStatus.whyDead(runtime.status(labId));
            return dead.map(why -> "The lab did not survive the server's restart (" + why + "). Start it again.")
                    .orElse(null);
        } catch (EngineUnavailableException e) {
            LOG.infof("adopting lab %s unchecked: %s", labId, e.getMessage());
            return null;
        }
    }
}
