package dev.tclab.lab;

import java.time.Duration;
import java.time.Instant;

/**
 * The limits one lab runs under, fixed when it is created: how long it may sit untouched, and when it is stopped
 * however busy, with the words the learner reads then.
 *
 * @param idleTimeout how long the lab may sit untouched before it is stopped
 * @param endsAt      when the lab is stopped however busy
 * @param endReason   what the learner reads once it was stopped at {@code endsAt}
 */
public record LabTerms(Duration idleTimeout, Instant endsAt, String endReason) {

    /** These terms, ending no later than {@code bound} does (the server's lifetime bounds every lab's). */
    LabTerms within(LabTerms bound) {
        return endsAt.isAfter(bound.endsAt) ? new LabTerms(idleTimeout, bound.endsAt, bound.endReason) : this;
    }
}
