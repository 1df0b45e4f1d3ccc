package dev.tclab.workshop;

import dev.tclab.http.Quote;
import java.time.Duration;

/**
 * A workshop request refused, with one sentence saying what to do next. Its {@link Kind} says why in the workshop's
 * terms; {@link WorkshopErrorMappers} turns it into an HTTP status at the API's edge.
 */
public class WorkshopRefusal extends RuntimeException {

    /** Why a request is refused. */
    public enum Kind {
        /** The request itself is wrong (a field out of range, no body). */
        INVALID,
        /** What it names does not exist, or is not the asker's to see. */
        NOT_FOUND,
        /** It cannot be done as things stand (a taken name, a full workshop, no lab to act on). */
        CONFLICT,
        /** What it names has ended (a closed workshop's join code). */
        GONE,
        /** Too many tries: waiting ends it. */
        TOO_MANY,
        /** The lab engine does not answer. */
        ENGINE_DOWN
    }

    private final Kind kind;
    private final Duration retryAfter;

    public WorkshopRefusal(Kind kind, String message) {
        this(kind, message, null);
    }

    /** A refusal that waiting {@code retryAfter} ends (sent as Retry-After). */
    WorkshopRefusal(Kind kind, String message, Duration retryAfter) {
        super(message);
        this.kind = kind;
        this.retryAfter = retryAfter;
    }

    public Kind kind() {
        return kind;
    }

    /** How long to wait before trying again; null when waiting does not help. */
    Duration retryAfter() {
        return retryAfter;
    }

    static WorkshopRefusal notFound(String eventId) {
        return new WorkshopRefusal(Kind.NOT_FOUND, "You have no workshop " + Quote.of(eventId) + ".");
    }
}
