package dev.tclab.terminal;

/** One shell per learner, lab and node: a reconnecting page of the same learner gets the same shell back. */
record SessionKey(String labId, String node, String learner) {}
