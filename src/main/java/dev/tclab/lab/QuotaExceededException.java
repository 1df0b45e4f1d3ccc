package dev.tclab.lab;

import java.time.Duration;
import java.util.Optional;

/** A client or learner reached a limit on starting labs (HTTP 429); the message says what to do. */
public class QuotaExceededException extends Exception {

    private final Duration retryAfter;

    public QuotaExceededException(String message, Duration retryAfter) {
        super(message);
        this.retryAfter = retryAfter;
    }

    /** When trying again can succeed without doing anything else; empty when the client must stop a lab first. */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }
}
