package dev.tclab.lab;

import dev.tclab.runtime.LabProgressListener;
import dev.tclab.runtime.topology.Topology;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;

/**
 * One learner's lab and its state. Thread-safe: the start runs on a worker while requests read it. Phase changes
 * are atomic compare-and-set steps (a stop that lands while the start finishes cannot be undone by it), and each
 * one bumps {@link LabRecord#version()}, so the registry keeps the newest state whatever order writes arrive in.
 */
public final class Lab {

    private final String id;
    private final String owner;
    private final String lesson;
    private final Map<String, String> parameters;
    private final Topology topology;
    private final Instant createdAt;
    private LabPhase phase;
    private long version;
    private volatile LabProgressListener.Stage stage;
    private String reason;
    private Instant readyAt;
    private Instant endedAt;
    private volatile Instant lastActivity;
    private volatile Instant lastWatched;
    /** Set by {@link LabService} before anyone else sees the lab. */
    private volatile LabTerms terms;
    /** The latest use or open page any replica recorded in the registry (see {@link LabRegistry#seen}). */
    private volatile Instant lastSeenAnywhere;
    /** The client the start quota counted this lab against; null when none did. */
    private volatile String client;

    public Lab(String id, String owner, String lesson, Map<String, String> parameters, Topology topology, Instant now) {
        this(id, owner, lesson, parameters, topology, micros(now), LabPhase.STARTING, null, now);
    }

    /** A lab waiting in the start queue; {@link #dequeued} makes it STARTING when a slot frees. */
    static Lab queued(
            String id, String owner, String lesson, Map<String, String> parameters, Topology topology, Instant now) {
        return new Lab(id, owner, lesson, parameters, topology, micros(now), LabPhase.QUEUED, null, now);
    }

    /** A lab for the warm pool: started with no owner, until {@link #claimedBy} hands it to a learner. */
    static Lab pooled(String id, String lesson, Topology topology, Instant now) {
        return new Lab(id, null, lesson, Map.of(), topology, micros(now), LabPhase.STARTING, null, now);
    }

    /**
     * This running pooled lab as {@code owner}'s: the same containers, with the learner's parameter values, and its
     * lifetime, idle and unwatched clocks counted from the claim, as if it had just started. A new object: the
     * pool's copy is dropped, so nothing of the pool's time carries over.
     */
    synchronized Lab claimedBy(String owner, Map<String, String> parameters, Instant now) {
        Lab claimed = new Lab(id, owner, lesson, parameters, topology, micros(now), LabPhase.RUNNING, micros(now), now);
        claimed.version = version + 1;
        claimed.stage = LabProgressListener.Stage.READY;
        return claimed;
    }

    /** Times kept to the microsecond, as the registry's databases keep them, so a restored lab reads the same. */
    private static Instant micros(Instant time) {
        return time.truncatedTo(ChronoUnit.MICROS);
    }

    private Lab(
            String id,
            String owner,
            String lesson,
            Map<String, String> parameters,
            Topology topology,
            Instant createdAt,
            LabPhase phase,
            Instant readyAt,
            Instant lastActivity) {
        this.id = id;
        this.owner = owner;
        this.lesson = lesson;
        this.parameters = Map.copyOf(parameters);
        this.topology = topology;
        this.createdAt = createdAt;
        this.phase = phase;
        this.readyAt = readyAt;
        this.lastActivity = lastActivity;
        this.lastWatched = lastActivity;
    }

    /**
     * A lab found again after a restart, in the phase its record gives. Its idle time counts from now: the learner
     * could not use it while the server was away.
     */
    static Lab restored(LabRecord record, Topology topology, Instant now) {
        Lab lab = new Lab(
                record.id(),
                record.owner(),
                record.lesson(),
                record.parameters(),
                topology,
                record.createdAt(),
                record.phase(),
                record.readyAt(),
                now);
        lab.version = record.version();
        lab.reason = record.reason();
        lab.endedAt = record.endedAt();
        lab.stage = record.readyAt() == null ? null : LabProgressListener.Stage.READY;
        lab.client = record.client();
        return lab;
    }

    public String id() {
        return id;
    }

    /** The learner it belongs to; null while it waits unclaimed in the warm pool. */
    public String owner() {
        return owner;
    }

    /** True for a lab of the warm pool that no learner has claimed. */
    public boolean pooled() {
        return owner == null;
    }

    public String lesson() {
        return lesson;
    }

    /** The learner's values of the lesson's parameters, as drawn when the lab started. */
    public Map<String, String> parameters() {
        return parameters;
    }

    public Topology topology() {
        return topology;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public synchronized LabPhase phase() {
        return phase;
    }

    /** The last start stage reached, or null before the first. */
    public LabProgressListener.Stage stage() {
        return stage;
    }

    /** Why the lab failed or was stopped, in words for the learner; null otherwise. */
    public synchronized String reason() {
        return reason;
    }

    public synchronized Instant readyAt() {
        return readyAt;
    }

    public Instant lastActivity() {
        return lastActivity;
    }

    /** Its idle timeout and end of life (a workshop event's, or the server's). */
    public LabTerms terms() {
        return terms;
    }

    void governedBy(LabTerms given) {
        terms = given;
    }

    /**
     * When the lab would be stopped if nobody used it from now on: at its idle expiry, or at its end of life if
     * that comes first.
     */
    public Instant expiresAt() {
        Instant idle = lastActivity.plus(terms.idleTimeout());
        return idle.isAfter(terms.endsAt()) ? terms.endsAt() : idle;
    }

    /** The lab as the registry keeps it, taken atomically. */
    public synchronized LabRecord record() {
        return new LabRecord(
                id,
                owner,
                lesson,
                parameters,
                phase,
                createdAt,
                readyAt,
                lastActivity,
                endedAt,
                reason,
                version,
                client);
    }

    /** The client the start quota counted this lab against (see {@link StartQuota}); null when none did. */
    String client() {
        return client;
    }

    void admittedFrom(String quotaClient) {
        client = quotaClient;
    }

    void stageReached(LabProgressListener.Stage reached) {
        stage = reached;
    }

    /** QUEUED to STARTING; false (and no change) when the lab was stopped while it waited. */
    synchronized boolean dequeued() {
        if (phase != LabPhase.QUEUED) {
            return false;
        }
        phase = LabPhase.STARTING;
        version++;
        return true;
    }

    /** STARTING to RUNNING; false (and no change) when the lab was stopped or failed meanwhile. */
    synchronized boolean ready(Instant now) {
        if (phase != LabPhase.STARTING) {
            return false;
        }
        readyAt = micros(now);
        phase = LabPhase.RUNNING;
        version++;
        return true;
    }

    /** A live lab becomes FAILED; false (and no change) when it had already ended. */
    synchronized boolean failed(String why, Instant now) {
        return end(LabPhase.FAILED, why, now) != null;
    }

    /**
     * A live lab becomes STOPPED. Returns the phase it had, or null when it had already ended (nothing changed).
     */
    synchronized LabPhase stopped(String why, Instant now) {
        return end(LabPhase.STOPPED, why, now);
    }

    private LabPhase end(LabPhase to, String why, Instant now) {
        LabPhase was = phase;
        if (!was.live()) {
            return null;
        }
        reason = why;
        endedAt = micros(now);
        phase = to;
        version++;
        return was;
    }

    /** Notes that a page had the lab open now (a terminal or statistics socket). */
    void watched(Instant now) {
        lastWatched = now;
    }

    /** The later of the last use and the last time a page was seen open on the lab. */
    Instant lastUsedOrWatched() {
        Instant watched = lastWatched;
        Instant used = lastActivity;
        return watched.isAfter(used) ? watched : used;
    }

    /**
     * Takes the registry's record, written by another replica, when it is newer than this copy: its phase, reason
     * and times. Returns true when that ended the lab here (it was live and is not any more).
     */
    synchronized boolean synced(LabRecord record) {
        if (record.lastActivity() != null
                && (lastSeenAnywhere == null || record.lastActivity().isAfter(lastSeenAnywhere))) {
            lastSeenAnywhere = record.lastActivity();
        }
        if (record.version() <= version) {
            return false;
        }
        boolean wasLive = phase.live();
        phase = record.phase();
        reason = record.reason();
        readyAt = record.readyAt();
        endedAt = record.endedAt();
        version = record.version();
        if (readyAt != null) {
            stage = LabProgressListener.Stage.READY;
        }
        return wasLive && !phase.live();
    }

    /** The latest use or open page recorded by any replica; null when none was recorded. */
    Instant lastSeenAnywhere() {
        return lastSeenAnywhere;
    }

    /** Marks the lab as in use now, which postpones idle culling. */
    public void touch(Instant now) {
        lastActivity = now;
    }
}
