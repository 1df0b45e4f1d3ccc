package dev.tclab.workshop;

import dev.tclab.http.ApiError;
import dev.tclab.http.RetryAfter;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Workshop refusals as the app's usual JSON errors. */
public class WorkshopErrorMappers {

    @ServerExceptionMapper
    public Response refused(WorkshopRefusal e) {
        Response response = ApiError.response(e.status(), e.getMessage());
        return e.retryAfter() == null ? response : RetryAfter.on(response, e.retryAfter());
    }
}
