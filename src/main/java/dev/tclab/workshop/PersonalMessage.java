package dev.tclab.workshop;

import java.time.Instant;

/** A message the host sent to one learner, kept until the learner marks it read. */
public record PersonalMessage(long id, String text, Instant sentAt) {}
