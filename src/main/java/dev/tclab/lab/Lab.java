package dev.tclab.lab;

import java.time.Instant;

/** One learner's lab and its state. Thread-safe: the start runs on a worker while requests read it. */
public final class Lab {

    private final String id;
    private final String owner;
    private final String lesson;
    private final Topology topology;
    private final Instant createdAt;
    private volatile LabPhase phase = LabPhase.STARTING;
    private volatile LabProgressListener.Stage stage;
    private volatile String reason;
    private volatile Instant readyAt;
    private volatile Instant lastActivity;

    public Lab(String id, String owner, String lesson, Topology topology, Instant now) {
        this.id = id;
        this.owner = owner;
        this.lesson = lesson;
        this.topology = topology;
        this.createdAt = now;
        this.lastActivity = now;
    }

    public String id() {
        return id;
    }

    public String owner() {
        return owner;
    }

    public String lesson() {
        return lesson;
    }

    public Topology topology() {
        return topology;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public LabPhase phase() {
        return phase;
    }

    /** The last start stage reached, or null before the first. */
    public LabProgressListener.Stage stage() {
        return stage;
    }

    /** Why the lab failed or was stopped, in words for the learner; null otherwise. */
    public String reason() {
        return reason;
    }

    public Instant readyAt() {
        return readyAt;
    }

    public Instant lastActivity() {
        return lastActivity;
    }

    void stageReached(LabProgressListener.Stage reached) {
        stage = reached;
    }

    void ready(Instant now) {
        readyAt = now;
        phase = LabPhase.RUNNING;
    }

    void failed(String why) {
        reason = why;
        phase = LabPhase.FAILED;
    }

    void stopped(String why) {
        reason = why;
        phase = LabPhase.STOPPED;
    }

    /** Marks the lab as in use now, which postpones idle culling. */
    public void touch(Instant now) {
        lastActivity = now;
    }
}
