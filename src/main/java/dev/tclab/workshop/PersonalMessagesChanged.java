package dev.tclab.workshop;

/** Fired after a learner's unread messages changed (the host sent one, the learner read one): their pages follow. */
public record PersonalMessagesChanged(String eventId, String learnerId) {}
