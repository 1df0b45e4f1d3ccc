package dev.tclab.workshop;

import dev.tclab.http.ApiError;
import dev.tclab.http.RetryAfter;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.Response.Status;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Workshop refusals as the app's usual JSON errors. */
public class WorkshopErrorMappers {

    @ServerExceptionMapper
    public Response refused(WorkshopRefusal e) {
        Response response = ApiError.response(status(e.kind()), e.getMessage());
        return e.retryAfter() == null ? response : RetryAfter.on(response, e.retryAfter());
    }

    static Status status(WorkshopRefusal.Kind kind) {
        return switch (kind) {
            case INVALID -> Status.BAD_REQUEST;
            case NOT_FOUND -> Status.NOT_FOUND;
            case CONFLICT -> Status.CONFLICT;
            case GONE -> Status.GONE;
            case TOO_MANY -> Status.TOO_MANY_REQUESTS;
            case ENGINE_DOWN -> Status.SERVICE_UNAVAILABLE;
        };
    }
}
