package dev.tclab.lab.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.HostConfig;
import dev.tclab.lab.ExecResult;
import dev.tclab.lab.LabScripts;
import dev.tclab.lab.LabStartException;
import dev.tclab.lab.Topology;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Creates a lab's veth links directly inside its nodes' network namespaces, with their final interface names:
 * {@code ip link add eth1 netns <pidA> type veth peer name eth1 netns <pidB>}. That needs NET_ADMIN and the host's
 * PID namespace (to name the nodes' namespaces by pid), so it runs in a helper container of the app, never in a lab
 * node and never privileged. The helper lives as long as the app: one exec per lab start costs ~50 ms, where a
 * fresh helper container per lab would add the cost of a container create and start to every lab start.
 */
final class Wiring {

    private final DockerClient docker;
    private final String instance;
    private final String image;
    private final String name;
    private volatile boolean used;

    Wiring(DockerClient docker, String instance, String image) {
        this.docker = docker;
        this.instance = instance;
        this.image = image;
        this.name = "tclab-wiring-" + instance;
    }

    void connect(List<Topology.Link> links, Map<String, Long> pids, Duration timeout) throws LabStartException {
        if (links.isEmpty()) {
            return;
        }
        Map<String, String> namespaceOf = new java.util.HashMap<>();
        pids.forEach((node, pid) -> namespaceOf.put(node, Long.toString(pid)));
        ExecResult result = runInHelper(LabScripts.vethLinks(links, namespaceOf), timeout);
        if (!result.ok()) {
            throw new LabStartException("wiring the links failed: " + (result.stderr() + result.stdout()).trim()
                    + " (node pids " + pids + ")");
        }
    }

    /**
     * Runs the script in the helper, once more on a fresh helper if the helper vanished meanwhile (another app
     * instance with the same name stopping, or someone removing it by hand).
     */
    private ExecResult runInHelper(String script, Duration timeout) {
        for (int attempt = 1; ; attempt++) {
            try {
                ExecResult result = DockerExec.run(docker, helper(), List.of("sh", "-c", script), timeout);
                if (result.ok() || attempt == 2 || helperRunning()) {
                    return result;
                }
            } catch (NotFoundException | ConflictException e) {
                if (attempt == 2) {
                    throw e;
                }
            }
        }
    }

    private boolean helperRunning() {
        try {
            return Boolean.TRUE.equals(docker.inspectContainerCmd(name).exec().getState().getRunning());
        } catch (NotFoundException e) {
            return false;
        }
    }

    /** The helper container's name, creating or restarting it when needed. */
    private synchronized String helper() {
        used = true;
        if (helperRunning()) {
            return name;
        }
        try {
            docker.removeContainerCmd(name).withForce(true).exec();
        } catch (NotFoundException | ConflictException e) {
            // Not there (or being removed already).
        }
        HostConfig host = HostConfig.newHostConfig()
                .withNetworkMode("none")
                .withPidMode("host")
                .withCapDrop(Capability.ALL)
                .withCapAdd(Capability.NET_ADMIN)
                .withSecurityOpts(List.of("no-new-privileges"))
                .withMemory(64L * 1024 * 1024)
                .withPidsLimit(64L)
                .withInit(true);
        try {
            docker.createContainerCmd(image).withName(name).withLabels(Labels.service(instance, Labels.ROLE_WIRING))
                    .withCmd("sleep", "infinity").withHostConfig(host).exec();
        } catch (ConflictException e) {
            // Created concurrently by another app thread; start it below either way.
        }
        docker.startContainerCmd(name).exec();
        return name;
    }

    /** Removes the helper when this app used it: an app that wired nothing leaves another copy's helper alone. */
    void remove() {
        if (!used) {
            return;
        }
        try {
            docker.removeContainerCmd(name).withForce(true).exec();
        } catch (RuntimeException e) {
            // Gone already, or the engine is down; the next start replaces it.
        }
    }
}
