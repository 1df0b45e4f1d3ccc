package dev.tclab.runtime;

import java.time.Duration;
import java.time.Instant;

/**
 * When a lab is an orphan for sure, as every runtime labels its containers or pods ({@code tclab.expires}, in epoch
 * seconds) and its reaper reads it back: no live app keeps a lab past its maximum lifetime and this grace.
 */
public final class LabExpiry {

    /** Past its maximum lifetime, an app stops a lab within a cull interval; the grace keeps clear of that. */
    public static final Duration GRACE = Duration.ofMinutes(10);

    private LabExpiry() {}

    /** The expiry of a lab started at {@code started}. */
    public static Instant of(Instant started, Duration maxLifetime) {
        return started.plus(maxLifetime).plus(GRACE);
    }

    /**
     * The expiry of a lab started at {@code started}: a pooled lab waits up to one lifetime for its learner, who then
     * gets a full one, so it lasts two.
     */
    public static Instant of(Instant started, Duration maxLifetime, boolean pooled) {
        return of(started, maxLifetime.multipliedBy(pooled ? 2 : 1));
    }

    /** Whether an expiry label (epoch seconds) is before {@code now}; a missing or garbled one never is. */
    public static boolean passed(String expires, Instant now) {
        try {
            return expires != null
                    && Instant.ofEpochSecond(Long.parseLong(expires)).isBefore(now);
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
