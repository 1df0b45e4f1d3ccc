package dev.tclab.runtime;

import dev.tclab.runtime.topology.Topology;

/**
 * What to start: a lab id, the topology, and who it belongs to (carried as container labels so orphans can be
 * found and reaped). A {@code pooled} lab is started for the warm pool: its owner label names no learner (the
 * database says who claimed it), and its containers expire twice as late, since the pool keeps it unclaimed for up to
 * one lifetime and its learner gets a full lifetime from the claim.
 */
public record LabSpec(String labId, Topology topology, String owner, String lesson, boolean pooled) {

    /** The owner label of a pooled lab's containers, whoever claims it later. */
    public static final String POOL_OWNER = "pool";

    public LabSpec(String labId, Topology topology, String owner, String lesson) {
        this(labId, topology, owner, lesson, false);
    }
}
