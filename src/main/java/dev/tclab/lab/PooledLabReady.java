package dev.tclab.lab;

import java.util.List;

/**
 * A lab of the warm pool is ready and has no learner yet. A learner's page opens a terminal on each of
 * {@code terminalNodes} at once, so their shells can be started now and be ready when the lab is handed out.
 */
public record PooledLabReady(String labId, List<String> terminalNodes) {}
