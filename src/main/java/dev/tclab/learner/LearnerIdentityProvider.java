package dev.tclab.learner;

import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Turns a verified learner id into an identity: its principal name is the learner id, its one role
 * {@link Roles#LEARNER}. Pure computation, so it runs on the calling (event loop) thread.
 */
@ApplicationScoped
public class LearnerIdentityProvider implements IdentityProvider<LearnerCookieRequest> {

    @Override
    public Class<LearnerCookieRequest> getRequestType() {
        return LearnerCookieRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(LearnerCookieRequest request, AuthenticationRequestContext context) {
        return Uni.createFrom()
                .item(QuarkusSecurityIdentity.builder()
                        .setPrincipal(new QuarkusPrincipal(request.learnerId()))
                        .addRole(Roles.LEARNER)
                        .build());
    }
}
