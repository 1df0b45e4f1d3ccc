package dev.tclab.learner;

import io.quarkus.security.identity.SecurityIdentity;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The learner id of the request or WebSocket being handled, from its {@link SecurityIdentity} (set by
 * {@link LearnerCookieMechanism}). Works alike in REST resources and websockets-next callbacks.
 */
@ApplicationScoped
public class CurrentLearner {

    private final SecurityIdentity identity;

    public CurrentLearner(SecurityIdentity identity) {
        this.identity = identity;
    }

    /** The learner id; every request has one, so its absence is a bug. */
    public String id() {
        if (identity.isAnonymous() || !identity.hasRole(Roles.LEARNER)) {
            throw new IllegalStateException(
                    "no learner identity on this request: is LearnerCookieMechanism installed?");
        }
        return identity.getPrincipal().getName();
    }
}
