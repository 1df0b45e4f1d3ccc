package dev.tclab.workshop;

import dev.tclab.http.Quote;
import jakarta.ws.rs.core.Response;
import java.time.Duration;

/** A workshop request refused with a status and one sentence saying what to do next. */
public class WorkshopRefusal extends RuntimeException {

    private final Response.Status status;
    private final Duration retryAfter;

    public WorkshopRefusal(Response.Status status, String message) {
        this(status, message, null);
    }

    /** A refusal that waiting {@code retryAfter} ends (sent as Retry-After). */
    WorkshopRefusal(Response.Status status, String message, Duration retryAfter) {
        super(message);
        this.status = status;
        this.retryAfter = retryAfter;
    }

    public Response.Status status() {
        return status;
    }

    /** How long to wait before trying again; null when waiting does not help. */
    Duration retryAfter() {
        return retryAfter;
    }

    static WorkshopRefusal notFound(String eventId) {
        return new WorkshopRefusal(Response.Status.NOT_FOUND, "You have no workshop " + Quote.of(eventId) + ".");
    }
}
