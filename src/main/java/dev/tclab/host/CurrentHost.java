package dev.tclab.host;

import dev.tclab.learner.Roles;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/** The signed-in host of the request being handled, from its {@link SecurityIdentity}. */
@ApplicationScoped
public class CurrentHost {

    private final SecurityIdentity identity;

    public CurrentHost(SecurityIdentity identity) {
        this.identity = identity;
    }

    /** The host, when the request carries a valid host session on a host route. */
    public Optional<Host> get() {
        if (identity.isAnonymous() || !identity.hasRole(Roles.HOST)) {
            return Optional.empty();
        }
        return Optional.of(new Host(identity.getPrincipal().getName(), identity.hasRole(Roles.ADMIN)));
    }

    /** The host of a request that needs the host role (guarded by {@code @RolesAllowed}). */
    public Host require() {
        return get().orElseThrow(
                        () -> new IllegalStateException("no host identity: is the route @RolesAllowed(host)?"));
    }

    /** A signed-in host: its name and whether it sees every workshop. */
    public record Host(String name, boolean admin) {}
}
