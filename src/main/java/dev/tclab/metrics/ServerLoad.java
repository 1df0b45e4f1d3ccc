package dev.tclab.metrics;

/**
 * The server's labs and engine as the operator gauges read them: labs by phase, the most that run at once, and
 * whether the Docker engine answered at its last check.
 */
public record ServerLoad(int running, int starting, int queued, int maxRunning, boolean engineReachable) {}
