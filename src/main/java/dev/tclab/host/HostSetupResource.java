package dev.tclab.host;

import dev.tclab.http.ApiError;
import io.smallrye.common.annotation.Blocking;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;

/** The first host account from the browser, with the setup token printed at the server's start ({@link HostSetup}). */
@Path("/api/host/setup")
@Produces(MediaType.APPLICATION_JSON)
@PermitAll
@Blocking
public class HostSetupResource {

    /** What the setup form sends. */
    public record SetupRequest(String token, String name, String password) {}

    /** Whether a setup token is waiting to be used. */
    public record SetupState(boolean open) {}

    private final HostSetup setup;
    private final HostSessions sessions;

    public HostSetupResource(HostSetup setup, HostSessions sessions) {
        this.setup = setup;
        this.sessions = sessions;
    }

    @GET
    public SetupState state() {
        return new SetupState(setup.open());
    }

    /** Creates the first host (an admin) and signs it in. */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(SetupRequest body) {
        try {
            HostAccount account = body == null
                    ? setup.createFirstHost(null, null, null)
                    : setup.createFirstHost(body.token(), body.name(), body.password());
            return Response.ok(new HostSessionResource.Me(account.name(), account.admin(), List.of()))
                    .cookie(HostSessionResource.cookie(
                            sessions.issue(account), (int) sessions.timeout().toSeconds()))
                    .build();
        } catch (HostSetup.Refusal refusal) {
            return ApiError.response(Response.Status.fromStatusCode(refusal.status()), refusal.getMessage());
        }
    }
}
