package dev.tclab.lab;

import dev.tclab.common.DurationWords;
import dev.tclab.config.TclabConfig;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.LabEngine;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.runtime.NodeStatus;
import jakarta.enterprise.event.Event;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import org.jboss.logging.Logger;

/**
 * Stops labs idle for longer than their idle timeout, past their end of life, or with no page open on them for too
 * long; notices labs whose containers died (removed by hand, killed by the kernel) and starts another replica
 * abandoned, so they stop holding a slot; removes what a gone tclab process left past its expiry.
 */
final class LabCuller {

    private static final Logger LOG = Logger.getLogger(LabCuller.class);

    private final LabTable labs;
    private final LabStarter starter;
    private final LabRuntime runtime;
    private final LabEngine engine;
    private final InstantSource clock;
    private final TclabConfig.Lab config;
    private final ReplicaSync replicas;
    private final WarmPoolKeeper poolKeeper;
    private final LabWatchers watchers;
    private final Event<LabEnded> ended;
    /** Stops a lab saying why, telling the log when the engine does not answer. */
    private final BiConsumer<Lab, String> stop;

    LabCuller(
            LabParts parts,
            ReplicaSync replicas,
            WarmPoolKeeper poolKeeper,
            LabWatchers watchers,
            Event<LabEnded> ended,
            BiConsumer<Lab, String> stop) {
        this.labs = parts.table();
        this.starter = parts.starter();
        this.runtime = parts.runtime();
        this.engine = parts.engine();
        this.clock = parts.clock();
        this.config = parts.config();
        this.replicas = replicas;
        this.poolKeeper = poolKeeper;
        this.watchers = watchers;
        this.ended = ended;
        this.stop = stop;
    }

    void cull(Instant now) {
        Set<String> watched = watchers.watchedLabs();
        for (Lab lab : labs.all()) {
            if (watched.contains(lab.id())) {
                lab.watched(now);
            }
            if (lab.phase() == LabPhase.STARTING && !starter.startsHere(lab.id())) {
                replicas.failAbandonedStart(lab, now, config.startTimeout())
                        .ifPresent(abandoned -> stop.accept(abandoned, abandoned.reason()));
                continue;
            }
            if (lab.phase() != LabPhase.RUNNING
                    || replicas.shareUse(lab).phase() != LabPhase.RUNNING
                    || refresh(lab).phase() != LabPhase.RUNNING) {
                continue;
            }
            String why = whyCull(lab, now);
            if (why != null) {
                LOG.infof("culling lab %s: %s", lab.id(), why);
                stop.accept(lab, why);
            }
        }
        poolKeeper.removeDead(lab -> refresh(lab).phase() == LabPhase.RUNNING);
        poolKeeper.refillSoon();
        removeExpiredLabs(now);
        labs.forgetEndedBefore(now);
    }

    /** Why the running lab is stopped now: idle, at its end of life, or unwatched; null when it stays. */
    private String whyCull(Lab lab, Instant now) {
        LabTerms terms = lab.terms();
        // Another replica may have seen it used or open more recently: then its record of that counts.
        Instant seenAnywhere = lab.lastSeenAnywhere();
        boolean seenElsewhere = seenAnywhere != null && seenAnywhere.isAfter(lab.lastUsedOrWatched());
        Instant usedAt = seenElsewhere ? seenAnywhere : lab.lastActivity();
        Instant usedOrWatchedAt = seenElsewhere ? seenAnywhere : lab.lastUsedOrWatched();
        if (Duration.between(usedAt, now).compareTo(terms.idleTimeout()) > 0) {
            return "Stopped after being idle for " + DurationWords.of(terms.idleTimeout()) + ".";
        }
        if (!now.isBefore(terms.endsAt())) {
            return terms.endReason();
        }
        if (Duration.between(usedOrWatchedAt, now).compareTo(config.unwatchedTimeout()) > 0) {
            return "Stopped after " + DurationWords.of(config.unwatchedTimeout())
                    + " with no page open on it. Start it again from the lesson.";
        }
        return null;
    }

    /**
     * Marks a running lab whose containers are gone or exited as failed, so the learner is told instead of left
     * hanging, and removes what is left of it.
     */
    Lab refresh(Lab lab) {
        if (lab.phase() != LabPhase.RUNNING) {
            return lab;
        }
        try {
            Optional<String> dead = NodeStatus.whyDead(runtime.status(lab.id()));
            if (dead.isPresent()) {
                if (lab.failed("The lab died (" + dead.get() + "). Stop it and start a new one.", clock.instant())) {
                    LOG.infof("lab %s died (%s)", lab.id(), dead.get());
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

    /**
     * Fails every running lab whose own kernel stopped answering the runtime's heartbeat, saying so in the learner's
     * words, and removes it: its container still runs (a hung UML kernel spins on a core), so no status shows it.
     */
    void heartbeat(Instant now) {
        Set<String> running = new HashSet<>();
        for (Lab lab : labs.all()) {
            if (lab.phase() == LabPhase.RUNNING) {
                running.add(lab.id());
            }
        }
        if (running.isEmpty()) {
            return;
        }
        for (String labId : runtime.silentKernels(running)) {
            Lab lab = labs.get(labId);
            if (lab != null && lab.failed(LabRuntime.KERNEL_SILENT, now)) {
                LOG.infof("lab %s failed: its kernel stopped answering", labId);
                starter.record(lab);
                ended.fire(new LabEnded(labId));
            }
            // On a worker: the heartbeat comes every few seconds, and an engine call may take longer under load.
            // What the engine does not remove now, the reaper does past the lab's expiry.
            starter.submit(() -> runtime.stopQuietly(labId));
        }
    }

    private void removeExpiredLabs(Instant now) {
        try {
            Set<String> removed = engine.removeExpiredLabs(now);
            if (!removed.isEmpty()) {
                LOG.infof("removed labs past their expiry, left by a tclab process that is gone: %s", removed);
            }
        } catch (EngineUnavailableException e) {
            LOG.debugf("cannot look for expired labs now: %s", e.getMessage());
        }
    }
}
