package dev.tclab.workshop;

import java.time.Instant;
import java.util.List;

/**
 * What a host sends to create an event. Times are ISO-8601 instants; null means "not set".
 *
 * @param seatCap            most learners; null: 30
 * @param idleTimeoutMinutes null: 45
 * @param lifetimeMinutes    null: 240, or the server's maximum lab lifetime if shorter
 * @param pooledLabs         labs kept ready for the first lesson while the event is open; null: 0
 */
public record EventDraft(
        String title,
        List<String> lessons,
        Instant opensAt,
        Instant closesAt,
        Integer seatCap,
        Integer idleTimeoutMinutes,
        Integer lifetimeMinutes,
        Integer pooledLabs) {}
