package dev.tclab.lab;

import java.time.Instant;
import java.util.Map;

/**
 * What the lab registry keeps of a lab, so a restarted server can adopt its running labs. {@code version} grows
 * with every phase change; a write older than the kept one is ignored.
 */
public record LabRecord(String id, String owner, String lesson, Map<String, String> parameters, LabPhase phase,
                        Instant createdAt, Instant readyAt, Instant lastActivity, Instant endedAt, String reason,
                        long version) {
}
