package dev.tclab.host;

import dev.tclab.learner.Roles;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * A verified host session as an identity: principal = host name, roles host (+ admin), once the database says the
 * session is still open (looked up off the event loop). A session ended by sign-out or a password change fails, and
 * the mechanism then leaves the request to the learner mechanism, as for no cookie at all.
 */
@ApplicationScoped
public class HostIdentityProvider implements IdentityProvider<HostCookieRequest> {

    private final HostSessions sessions;

    public HostIdentityProvider(HostSessions sessions) {
        this.sessions = sessions;
    }

    @Override
    public Class<HostCookieRequest> getRequestType() {
        return HostCookieRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(HostCookieRequest request, AuthenticationRequestContext context) {
        var builder = QuarkusSecurityIdentity.builder()
                .setPrincipal(new QuarkusPrincipal(request.session().name()))
                .addRole(Roles.HOST);
        if (request.session().admin()) {
            builder.addRole(Roles.ADMIN);
        }
        SecurityIdentity identity = builder.build();
        return context.runBlocking(() -> {
            if (!sessions.isOpen(request.session())) {
                throw new AuthenticationFailedException("the host session was ended");
            }
            return identity;
        });
    }
}
