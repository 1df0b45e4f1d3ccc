package dev.tclab.workshop;

import jakarta.ws.rs.core.Response;

/** A workshop request refused with a status and one sentence saying what to do next. */
public class WorkshopRefusal extends RuntimeException {

    private final Response.Status status;

    public WorkshopRefusal(Response.Status status, String message) {
        super(message);
        this.status = status;
    }

    public Response.Status status() {
        return status;
    }

    static WorkshopRefusal notFound(String eventId) {
        return new WorkshopRefusal(Response.Status.NOT_FOUND, "You have no workshop " + eventId + ".");
    }
}
