package dev.tclab.workshop;

import java.time.Instant;

/** Something a host did to a learner's lab: who, to whom, what, when. */
public record HostAction(String host, String learnerId, String action, String detail, Instant doneAt) {}
