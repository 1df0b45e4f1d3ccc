package dev.tclab.lab;

/**
 * What to start: a lab id, the topology, and who it belongs to (carried as container labels so orphans can be
 * found and reaped).
 */
public record LabSpec(String labId, Topology topology, String owner, String lesson) {
}
