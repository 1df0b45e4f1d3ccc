package dev.tclab.workshop;

import java.time.Instant;

/** A message the host sent to the whole class. */
public record Broadcast(long id, String text, Instant sentAt) {}
