package dev.tclab.host;

import dev.tclab.http.ApiError;
import io.smallrye.common.annotation.Blocking;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;
import dev.tclab.learner.Roles;

/** Host sign-in (JSON name and password; sets the session cookie), who is signed in, and sign-out. */
@Path("/api/host/session")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
public class HostSessionResource {

    /** What a sign-in sends. */
    public record SignIn(String name, String password) {
    }

    /** The signed-in host. */
    public record Me(String name, boolean admin) {
    }

    private final HostAccounts accounts;
    private final HostSessions sessions;
    private final CurrentHost current;

    public HostSessionResource(HostAccounts accounts, HostSessions sessions, CurrentHost current) {
        this.accounts = accounts;
        this.sessions = sessions;
        this.current = current;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @PermitAll
    public Response signIn(SignIn body) {
        if (body == null || body.name() == null || body.password() == null) {
            return ApiError.response(Response.Status.BAD_REQUEST, "Send your host name and password as JSON: {\"name\": ..., \"password\": ...}.");
        }
        String name = body.name().strip().toLowerCase(java.util.Locale.ROOT);
        HostAccount account = name.matches(HostAccount.NAME_PATTERN) ? accounts.find(name).orElse(null) : null;
        if (!Passwords.matches(account == null ? null : account.passwordHash(), body.password()) || account == null) {
            return ApiError.response(Response.Status.UNAUTHORIZED,
                    "That host name and password do not match. Check both; a server admin can reset the password with bin/tclab host passwd NAME.");
        }
        return Response.ok(new Me(account.name(), account.admin())).cookie(cookie(sessions.issue(account),
                (int) sessions.timeout().toSeconds())).build();
    }

    @GET
    @RolesAllowed(Roles.HOST)
    public Me me() {
        CurrentHost.Host host = current.require();
        return new Me(host.name(), host.admin());
    }

    /** Ends the session on the server too, so a copy of the cookie stops working. */
    @DELETE
    @PermitAll
    public Response signOut(@CookieParam(HostSessions.COOKIE) String session) {
        sessions.verify(session).ifPresent(sessions::end);
        return Response.noContent().cookie(cookie("", 0)).build();
    }

    static NewCookie cookie(String value, int maxAgeSeconds) {
        // Path / so the host pages and APIs both get it; the mechanism only reads it on host routes.
        return new NewCookie.Builder(HostSessions.COOKIE).value(value).path("/").httpOnly(true)
                .sameSite(NewCookie.SameSite.STRICT).maxAge(maxAgeSeconds).build();
    }
}
