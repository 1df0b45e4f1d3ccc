package dev.tclab.lab.runtime;

import dev.tclab.config.TclabConfig;
import dev.tclab.lab.topology.TopologySource;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Default;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * Picks the runtime named by {@code tclab.runtime}: the {@link LabRuntime} and {@link LabEngine} the app injects. Each runtime is a bean named by an
 * {@link Identifier} and built only when picked, so the one not chosen never creates its client (no Docker socket
 * is opened on a cluster, no API server is looked for on a Docker host). On Docker, each lab then runs on the kernel
 * its lab.yml asks for ({@link KernelChoice}): the host's, or a User-Mode Linux kernel of its own.
 */
@ApplicationScoped
public class RuntimeChoice {

    @Produces
    @Singleton
    @Default
    RuntimeAdapter labRuntime(@Any Instance<RuntimeAdapter> runtimes, TclabConfig config, TopologySource topologies) {
        Instance<RuntimeAdapter> chosen = runtimes.select(Identifier.Literal.of(config.runtime()));
        if (!chosen.isResolvable() || "uml".equals(config.runtime())) {
            throw new IllegalStateException("tclab.runtime=" + config.runtime()
                    + " names no lab runtime: set it to docker or kubernetes (on docker, lab.yml's kernel: puts a"
                    + " lab in User-Mode Linux)");
        }
        if (!"docker".equals(config.runtime())) {
            return chosen.get();
        }
        Instance<RuntimeAdapter> uml = runtimes.select(Identifier.Literal.of("uml"));
        return new KernelChoice(chosen.get(), uml::get, topologies);
    }
}
