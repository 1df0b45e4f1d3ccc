package dev.tclab.runtime;

import dev.tclab.config.TclabConfig;
import dev.tclab.runtime.topology.TopologySource;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Default;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Map;

/**
 * Picks the runtime named by {@code tclab.runtime}: the {@link LabRuntime} and {@link LabEngine} the app injects. Each runtime is a bean named by an
 * {@link Identifier} and built only when picked, so the one not chosen never creates its client (no Docker socket
 * is opened on a cluster, no API server is looked for on a Docker host). Each lab then runs on the kernel its lab.yml
 * asks for ({@link KernelChoice}): the host's, or a User-Mode Linux kernel of its own, in a container on Docker or in a
 * pod on Kubernetes.
 */
@ApplicationScoped
public class RuntimeChoice {

    /** The runtime that runs a lab in User-Mode Linux, beside each runtime {@code tclab.runtime} may name. */
    private static final Map<String, String> UML = Map.of("docker", "uml", "kubernetes", "kubernetes-uml");

    @Produces
    @Singleton
    @Default
    RuntimeAdapter labRuntime(@Any Instance<RuntimeAdapter> runtimes, TclabConfig config, TopologySource topologies) {
        Instance<RuntimeAdapter> chosen = runtimes.select(Identifier.Literal.of(config.runtime()));
        if (!chosen.isResolvable() || UML.containsValue(config.runtime())) {
            throw new IllegalStateException("tclab.runtime=" + config.runtime()
                    + " names no lab runtime: set it to docker or kubernetes (lab.yml's kernel: puts a lab in"
                    + " User-Mode Linux)");
        }
        Instance<RuntimeAdapter> uml = runtimes.select(Identifier.Literal.of(UML.get(config.runtime())));
        return new KernelChoice(chosen.get(), uml::get, topologies);
    }
}
