package dev.tclab.host;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.quarkus.vertx.http.runtime.security.HttpCredentialTransport;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.Cookie;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.Set;

/**
 * On host routes ({@code /host...}, {@code /api/host...}) a valid {@code tclab_host} cookie makes the request a
 * host's. Everywhere else, and without a valid cookie, it yields nothing, so the learner mechanism (lower priority)
 * makes the request a learner's: a learner on a host API is then refused for want of the host role.
 */
@ApplicationScoped
public class HostCookieMechanism implements HttpAuthenticationMechanism {

    private final HostSessions sessions;

    public HostCookieMechanism(HostSessions sessions) {
        this.sessions = sessions;
    }

    /** Whether a path belongs to the host side of the app. */
    public static boolean hostRoute(String path) {
        return path.equals("/host")
                || path.startsWith("/host/")
                || path.equals("/api/host")
                || path.startsWith("/api/host/");
    }

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext ctx, IdentityProviderManager identities) {
        if (!hostRoute(ctx.normalizedPath())) {
            return Uni.createFrom().nullItem();
        }
        Cookie cookie = ctx.request().getCookie(HostSessions.COOKIE);
        Optional<HostSessions.Session> session = cookie == null ? Optional.empty() : sessions.verify(cookie.getValue());
        if (session.isEmpty()) {
            return Uni.createFrom().nullItem();
        }
        // An ended session (signed out, password changed) is no session: the request goes on as a learner's.
        return identities
                .authenticate(new HostCookieRequest(session.get()))
                .onFailure(AuthenticationFailedException.class)
                .recoverWithNull();
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext ctx) {
        return Uni.createFrom().nullItem();
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of(HostCookieRequest.class);
    }

    @Override
    public Uni<HttpCredentialTransport> getCredentialTransport(RoutingContext ctx) {
        return Uni.createFrom()
                .item(new HttpCredentialTransport(HttpCredentialTransport.Type.COOKIE, HostSessions.COOKIE));
    }

    @Override
    public int getPriority() {
        // Above the learner mechanism's default, so it is asked first.
        return DEFAULT_PRIORITY + 100;
    }
}
