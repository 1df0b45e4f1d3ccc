package dev.tclab.web;

import dev.tclab.http.ApiError;
import dev.tclab.lab.LabNotFoundException;
import dev.tclab.lab.ServerFullException;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.NodeNotFoundException;
import dev.tclab.runtime.topology.TopologyException;
import dev.tclab.store.StoreUnavailableException;
import dev.tclab.yaml.FileProblem;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Turns the app's exceptions into clear JSON errors with the right status. */
public class ErrorMappers {

    @ServerExceptionMapper
    public Response serverFull(ServerFullException e) {
        return Response.fromResponse(ApiError.response(Response.Status.SERVICE_UNAVAILABLE, e.getMessage()))
                .header("Retry-After", "60")
                .build();
    }

    @ServerExceptionMapper
    public Response engineDown(EngineUnavailableException e) {
        return ApiError.response(
                Response.Status.SERVICE_UNAVAILABLE,
                "The Docker engine does not answer, so labs are unavailable: " + e.getMessage());
    }

    @ServerExceptionMapper
    public Response databaseDown(StoreUnavailableException e) {
        return Response.fromResponse(ApiError.response(Response.Status.SERVICE_UNAVAILABLE, e.getMessage()))
                .header("Retry-After", "10")
                .build();
    }

    @ServerExceptionMapper
    public Response labNotFound(LabNotFoundException e) {
        return ApiError.response(Response.Status.NOT_FOUND, e.getMessage());
    }

    @ServerExceptionMapper
    public Response nodeNotFound(NodeNotFoundException e) {
        return ApiError.response(Response.Status.CONFLICT, e.getMessage());
    }

    @ServerExceptionMapper
    public Response brokenTopology(TopologyException e) {
        return ApiError.response(
                Response.Status.INTERNAL_SERVER_ERROR,
                "This lesson's lab.yml is broken, so its lab cannot start; the lesson author needs to fix it.",
                e.problems().stream().map(FileProblem::toString).toList());
    }
}
