package dev.tclab.lab;

/**
 * A learner's live lab this server took from the registry rather than started: adopted after a restart, or started
 * through another replica. Fired synchronously, so the start quota counts it before the next start is admitted.
 */
public record LabAdopted(Lab lab) {}
