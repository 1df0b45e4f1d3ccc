package dev.tclab.workshop;

import java.time.Instant;

/** A learner's place in an event, under a display name unique in it. */
public record Seat(String eventId, String learnerId, String displayName, Instant joinedAt) {}
