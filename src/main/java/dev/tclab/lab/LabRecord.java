package dev.tclab.lab;

import java.time.Instant;
import java.util.Map;

/**
 * What the lab registry keeps of a lab, so a restarted server can adopt its running labs. {@code version} grows
 * with every phase change; a write older than the kept one is ignored. {@code client} is the client the start
 * quota counted the lab against (see {@link StartQuota}), kept while the lab is live so the count survives a
 * restart; null for a pooled lab, and once the lab ended.
 */
public record LabRecord(
        String id,
        String owner,
        String lesson,
        Map<String, String> parameters,
        LabPhase phase,
        Instant createdAt,
        Instant readyAt,
        Instant lastActivity,
        Instant endedAt,
        String reason,
        long version,
        String client) {

    /** A record of a lab no start quota counted (a pooled lab, or one admitted by none). */
    public LabRecord(
            String id,
            String owner,
            String lesson,
            Map<String, String> parameters,
            LabPhase phase,
            Instant createdAt,
            Instant readyAt,
            Instant lastActivity,
            Instant endedAt,
            String reason,
            long version) {
        this(id, owner, lesson, parameters, phase, createdAt, readyAt, lastActivity, endedAt, reason, version, null);
    }
}
