package dev.tclab.host;

import dev.tclab.http.ApiError;
import dev.tclab.http.RetryAfter;
import dev.tclab.learner.Roles;
import io.smallrye.common.annotation.Blocking;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Host sign-in (JSON name and password; sets the session cookie), who is signed in, and sign-out. */
@Path("/api/host/session")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
public class HostSessionResource {

    /** What a sign-in sends. */
    public record SignIn(String name, String password) {}

    /** The signed-in host; for an admin also the host names and addresses locked for wrong passwords now. */
    public record Me(String name, boolean admin, List<SignInGuard.Locked> signInLocks) {}

    private final HostAccounts accounts;
    private final HostSessions sessions;
    private final CurrentHost current;
    private final SignInGuard guard;

    public HostSessionResource(HostAccounts accounts, HostSessions sessions, CurrentHost current, SignInGuard guard) {
        this.accounts = accounts;
        this.sessions = sessions;
        this.current = current;
        this.guard = guard;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @PermitAll
    public Response signIn(SignIn body, @Context HttpServerRequest http) {
        if (body == null || body.name() == null || body.password() == null) {
            return ApiError.response(
                    Response.Status.BAD_REQUEST,
                    "Send your host name and password as JSON: {\"name\": ..., \"password\": ...}.");
        }
        String name = body.name().strip().toLowerCase(java.util.Locale.ROOT);
        boolean validName = name.matches(HostAccount.NAME_PATTERN);
        String guarded = validName ? name : "(not a host name)";
        SocketAddress peer = http.remoteAddress();
        String address = peer == null ? null : peer.hostAddress();
        Optional<Duration> wait = guard.wait(guarded, address);
        if (wait.isPresent()) {
            long seconds = RetryAfter.seconds(wait.get());
            return RetryAfter.on(
                    ApiError.response(
                            Response.Status.TOO_MANY_REQUESTS,
                            "Too many wrong "
                                    + "passwords for this host name or from your address, so sign-in waits " + seconds
                                    + " s. Try "
                                    + "again then; a server admin can reset the password with bin/tclab host passwd NAME."),
                    wait.get());
        }
        HostAccount account = validName ? accounts.find(name).orElse(null) : null;
        if (!Passwords.matches(account == null ? null : account.passwordHash(), body.password()) || account == null) {
            guard.failed(guarded, address);
            return ApiError.response(
                    Response.Status.UNAUTHORIZED,
                    "That host name and password do not match. Check both; a server admin can reset the password with bin/tclab host passwd NAME.");
        }
        guard.succeeded(guarded);
        return Response.ok(me(account.name(), account.admin()))
                .cookie(cookie(sessions.issue(account), (int) sessions.timeout().toSeconds()))
                .build();
    }

    @GET
    @RolesAllowed(Roles.HOST)
    public Me me() {
        CurrentHost.Host host = current.require();
        return me(host.name(), host.admin());
    }

    private Me me(String name, boolean admin) {
        return new Me(name, admin, admin ? guard.locks() : List.of());
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
        return new NewCookie.Builder(HostSessions.COOKIE)
                .value(value)
                .path("/")
                .httpOnly(true)
                .sameSite(NewCookie.SameSite.STRICT)
                .maxAge(maxAgeSeconds)
                .build();
    }
}
