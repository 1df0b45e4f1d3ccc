package dev.tclab.host;

import dev.tclab.learner.Roles;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** A verified host session as an identity: principal = host name, roles host (+ admin). Pure computation. */
@ApplicationScoped
public class HostIdentityProvider implements IdentityProvider<HostCookieRequest> {

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
        return Uni.createFrom().item(builder.build());
    }
}
