package dev.tclab.lab.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.HostConfig;
import dev.tclab.config.TclabConfig;
import dev.tclab.lab.ExecResult;
import dev.tclab.lab.LabSpec;
import dev.tclab.lab.Topology;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Creates, starts and removes hardened lab containers. */
final class NodeContainers {

    private static final long MIB = 1024L * 1024;

    private final DockerClient docker;
    private final TclabConfig.Lab limits;

    /** Past its maximum lifetime, an app stops a lab within a cull interval; the grace keeps clear of that. */
    static final Duration EXPIRY_GRACE = Duration.ofMinutes(10);

    NodeContainers(DockerClient docker, TclabConfig config) {
        this.docker = docker;
        this.limits = config.lab();
    }

    /** A node's container started, with its init process's pid on the engine host (for wiring its namespace). */
    record Started(String node, String containerId, long pid) {
    }

    static String name(String labId, String node) {
        return "tclab-" + labId + "-" + node;
    }

    Started createAndStart(String instance, LabSpec spec, Topology.Node node, String image) {
        CreateContainerCmd create = docker.createContainerCmd(image)
                .withName(name(spec.labId(), node.name()))
                .withHostName(node.name())
                .withLabels(Labels.node(instance, spec, node.name(), Instant.now().plus(limits.maxLifetime())
                        .plus(EXPIRY_GRACE)))
                .withEnv(node.env().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList())
                .withCmd("sleep", "infinity")
                .withHostConfig(hardened(node.sysctls()));
        String id = create.exec().getId();
        docker.startContainerCmd(id).exec();
        Long pid = docker.inspectContainerCmd(id).exec().getState().getPidLong();
        return new Started(node.name(), id, pid == null ? 0 : pid);
    }

    /**
     * Learners are root in these containers, so they get only what traffic control needs: NET_ADMIN and NET_RAW,
     * no privilege escalation, resource limits, and no network but the lab's own veth links.
     */
    HostConfig hardened(Map<String, String> sysctls) {
        return HostConfig.newHostConfig()
                .withNetworkMode("none")
                .withCapDrop(Capability.ALL)
                .withCapAdd(Capability.NET_ADMIN, Capability.NET_RAW)
                .withSecurityOpts(List.of("no-new-privileges"))
                .withMemory(limits.memoryMib() * MIB)
                .withMemorySwap(limits.memoryMib() * MIB)
                .withNanoCPUs((long) (limits.cpus() * 1_000_000_000L))
                .withPidsLimit(limits.pids())
                .withSysctls(sysctls)
                // An init reaps the zombies that learners' background jobs leave behind.
                .withInit(true);
    }

    /** Removes a container, killing it first. Already gone (404) or being removed (409) count as done. */
    void remove(String containerId) {
        try {
            docker.removeContainerCmd(containerId).withForce(true).withRemoveVolumes(true).exec();
        } catch (NotFoundException | ConflictException e) {
            // Done already.
        }
    }

    /** Runs a script in a fresh hardened container with no network, then removes it. */
    ExecResult runThrowaway(String instance, String image, List<String> command, Duration timeout) {
        String id = docker.createContainerCmd(image)
                .withName("tclab-probe-" + Long.toHexString(System.nanoTime()))
                .withLabels(Labels.service(instance, Labels.ROLE_PROBE))
                .withCmd("sleep", "infinity")
                .withHostConfig(hardened(Map.of()))
                .exec().getId();
        try {
            docker.startContainerCmd(id).exec();
            return DockerExec.run(docker, id, command, timeout);
        } finally {
            remove(id);
        }
    }
}
