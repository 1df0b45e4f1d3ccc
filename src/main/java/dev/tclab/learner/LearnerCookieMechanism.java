package dev.tclab.learner;

import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.quarkus.vertx.http.runtime.security.HttpCredentialTransport;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;

/**
 * Every HTTP request and WebSocket handshake gets a learner identity from the signed {@code tclab_learner} cookie.
 * A visitor without a valid cookie (none, expired key, forged signature) is a new learner: a fresh id, and the
 * cookie for it on the response. So there is never an anonymous request and nothing to challenge.
 *
 * <p>Hosts (workshops) get their identity from a second mechanism with a higher {@link #getPriority()}: it answers
 * requests carrying its own session cookie with an identity holding {@link Roles#HOST} (and {@link Roles#ADMIN}
 * where granted), and an empty item otherwise, so every other request falls through to this one.
 */
@ApplicationScoped
public class LearnerCookieMechanism implements HttpAuthenticationMechanism {

    private static final long ONE_YEAR_SECONDS = 365L * 24 * 3600;

    private final LearnerIds ids;

    public LearnerCookieMechanism(LearnerIds ids) {
        this.ids = ids;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext ctx, IdentityProviderManager identities) {
        Cookie cookie = ctx.request().getCookie(LearnerIds.COOKIE);
        String id = cookie == null ? null : ids.verify(cookie.getValue()).orElse(null);
        if (id == null) {
            id = ids.newId();
            ctx.response()
                    .addCookie(Cookie.cookie(LearnerIds.COOKIE, ids.sign(id))
                            .setPath("/")
                            .setHttpOnly(true)
                            .setSameSite(CookieSameSite.LAX)
                            .setMaxAge(ONE_YEAR_SECONDS));
        }
        return identities.authenticate(new LearnerCookieRequest(id));
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext ctx) {
        // Never asked for: authenticate always yields an identity.
        return Uni.createFrom().nullItem();
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of(LearnerCookieRequest.class);
    }

    @Override
    public Uni<HttpCredentialTransport> getCredentialTransport(RoutingContext ctx) {
        return Uni.createFrom()
                .item(new HttpCredentialTransport(HttpCredentialTransport.Type.COOKIE, LearnerIds.COOKIE));
    }
}
