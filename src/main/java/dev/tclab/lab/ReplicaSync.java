package dev.tclab.lab;

import jakarta.enterprise.event.Event;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Collection;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * Keeps this replica's copy of the labs in step with the lab registry, which several replicas sharing one database
 * and one engine write: a lab another replica started, stopped or saw used is read from the registry when a learner
 * or host asks for it and at each cull; this replica's uses are written there, so every replica culls a lab by the
 * latest use any of them saw (see docs/SCALING.md).
 */
final class ReplicaSync {

    private static final Logger LOG = Logger.getLogger(ReplicaSync.class);

    private final LabRegistry registry;
    /** This replica's labs, kept up to date here. */
    private final LabTable labs;

    private final LabFactory factory;
    private final LabStarter starter;
    private final InstantSource clock;
    private final Event<LabEnded> ended;
    private final Event<LabAdopted> adopted;

    ReplicaSync(LabParts parts, Event<LabEnded> ended, Event<LabAdopted> adopted) {
        this.registry = parts.registry();
        this.labs = parts.table();
        this.factory = parts.factory();
        this.starter = parts.starter();
        this.clock = parts.clock();
        this.ended = ended;
        this.adopted = adopted;
    }

    /**
     * This replica's copy of the lab brought up to date with the registry (another replica may have started,
     * stopped or used it); null when neither knows it. While the database does not answer, the copy as it is.
     */
    Lab synced(String labId) {
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
    void syncOwners(Collection<String> owners) {
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
            labs.all().stream()
                    .filter(l -> wanted.contains(l.owner()) && l.phase().live())
                    .filter(l -> !live.contains(l.id()) && l.phase() != LabPhase.QUEUED)
                    .map(Lab::id)
                    .toList()
                    .forEach(this::synced);
        } catch (RuntimeException e) {
            LOG.debugf("cannot read the labs of %d learners from the registry: %s", owners.size(), e.getMessage());
        }
    }

    /**
     * Writes this replica's latest use of the lab to the registry and reads back what the others wrote (a stop, a
     * later use), so replicas cull a lab by what all of them saw.
     */
    Lab shareUse(Lab lab) {
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
     * {@code startTimeout} (and a margin) with the registry still saying STARTING, nobody will finish it: it is
     * recorded as failed and returned, for the caller to remove what is left of it.
     */
    Optional<Lab> failAbandonedStart(Lab lab, Instant now, Duration startTimeout) {
        Lab fresh = synced(lab.id());
        if (fresh == null
                || fresh.phase() != LabPhase.STARTING
                || Duration.between(fresh.createdAt(), now).compareTo(startTimeout.plusMinutes(1)) <= 0) {
            return Optional.empty();
        }
        if (fresh.failed("The server restarted while this lab was starting. Start it again.", now)) {
            starter.record(fresh);
            ended.fire(new LabEnded(fresh.id()));
            return Optional.of(fresh);
        }
        return Optional.empty();
    }

    /** Whether the registry holds the lab live with no owner: another replica's pooled lab, not an orphan. */
    boolean pooledElsewhere(String labId) {
        try {
            return registry.find(labId)
                    .filter(r -> r.owner() == null && r.phase().live())
                    .isPresent();
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
        if (known == null && record.phase() == LabPhase.QUEUED) {
            // Queued on another replica, which starts it; or left from before a restart, queued again at adoption.
            return;
        }
        if (known == null) {
            Lab lab = factory.restored(record, clock.instant());
            lab.synced(record);
            if (labs.putIfAbsent(lab) && lab.phase().live()) {
                adopted.fire(new LabAdopted(lab));
            }
        } else if (known.synced(record)) {
            LOG.infof("lab %s ended on another replica: %s", known.id(), known.reason());
            ended.fire(new LabEnded(known.id()));
        }
    }
}
