package dev.tclab.lab;

import dev.tclab.config.TclabConfig;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Default;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * Picks the {@link LabRuntime} named by {@code tclab.runtime}. Each runtime is a bean named by an
 * {@link Identifier} and built only when picked, so the one not chosen never creates its client (no Docker socket
 * is opened on a cluster, no API server is looked for on a Docker host).
 */
@ApplicationScoped
public class RuntimeChoice {

    @Produces
    @Singleton
    @Default
    LabRuntime labRuntime(@Any Instance<LabRuntime> runtimes, TclabConfig config) {
        Instance<LabRuntime> chosen = runtimes.select(Identifier.Literal.of(config.runtime()));
        if (!chosen.isResolvable()) {
            throw new IllegalStateException("tclab.runtime=" + config.runtime()
                    + " names no lab runtime: set it to docker or kubernetes");
        }
        return chosen.get();
    }
}
