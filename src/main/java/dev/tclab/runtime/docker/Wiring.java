package dev.tclab.runtime.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.HostConfig;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.LabScripts;
import dev.tclab.runtime.LabStartException;
import dev.tclab.runtime.LabelKeys;
import dev.tclab.runtime.agent.SidecarAgent;
import dev.tclab.runtime.topology.Topology;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Creates a lab's veth links directly inside its nodes' network namespaces, with their final interface names:
 * {@code ip link add eth1 netns <pidA> type veth peer name eth1 netns <pidB>}. That needs NET_ADMIN and the host's
 * PID namespace (to name the nodes' namespaces by pid), so it runs in a helper container of the app, never in a lab
 * node and never privileged. The helper lives as long as the app and runs the sidecar's agent ({@link SidecarAgent})
 * as its main process, attached once: a lab's wiring is a fork in the helper, where a Docker exec per lab cost the
 * engine three API calls and a runc process (50-80 ms of CPU, and 30 of them at once when a class starts), and a
 * fresh helper container per lab would cost a container create and start.
 *
 * <p>In the same exec it takes each node's {@code /dev} from the learner (issue 25, row 6): the engine mounts it as a
 * writable tmpfs with exec, and no mount option reaches it (a tmpfs of our own on {@code /dev} drops the engine's
 * {@code /dev/pts}, so no terminal). Owned by nobody with mode 755, it stays readable, and the learner's root, which
 * has no CAP_DAC_OVERRIDE, CAP_FOWNER or CAP_CHOWN, can no longer create, change or run a file there. The helper
 * needs CAP_CHOWN and CAP_NET_RAW for that (see {@link #CAPABILITIES}).
 */
final class Wiring {

    /**
     * NET_ADMIN for the links; CHOWN for /dev; NET_RAW only because the kernel lets a process reach another's
     * {@code /proc/<pid>/root} only when it holds every capability the other holds (the nodes have NET_RAW).
     */
    private static final List<Capability> CAPABILITIES =
            List.of(Capability.NET_ADMIN, Capability.NET_RAW, Capability.CHOWN);

    private final DockerClient docker;
    private final String instance;
    private final String image;
    private final String name;
    private volatile boolean used;
    /** The helper's agent once attached; null before, and after it went away. */
    private SidecarAgent agent;

    Wiring(DockerClient docker, String instance, String image) {
        this.docker = docker;
        this.instance = instance;
        this.image = image;
        this.name = "tclab-wiring-" + instance;
    }

    /** Seals each node's {@code /dev} (see above) and creates the links, in one request to the helper's agent. */
    void connect(List<Topology.Link> links, Map<String, Long> pids, Duration timeout) throws LabStartException {
        Map<String, String> namespaceOf = new java.util.HashMap<>();
        pids.forEach((node, pid) -> namespaceOf.put(node, Long.toString(pid)));
        ExecResult result = runInHelper(sealDevices(pids.values()) + LabScripts.vethLinks(links, namespaceOf), timeout);
        if (!result.ok()) {
            throw new LabStartException("wiring the links failed: " + (result.stderr() + result.stdout()).trim()
                    + " (node pids " + pids + ")");
        }
    }

    /** The nodes' /dev directories, reached through their init processes, given to nobody (uid 65534). */
    static String sealDevices(Collection<Long> pids) {
        StringBuilder script = new StringBuilder("set -e\n");
        pids.forEach(pid -> script.append("chown 65534 /proc/").append(pid).append("/root/dev\n"));
        return script.toString();
    }

    /**
     * Runs the script in the helper's agent, once more on a fresh helper if the helper vanished meanwhile (another app
     * instance with the same name stopping, or someone removing it by hand).
     */
    private ExecResult runInHelper(String script, Duration timeout) throws LabStartException {
        for (int attempt = 1; ; attempt++) {
            SidecarAgent helper = agent();
            try {
                return helper.run(List.of("sh", "-c", script), timeout);
            } catch (SidecarAgent.Gone e) {
                forget(helper);
                if (attempt == 2) {
                    throw new LabStartException("wiring the links failed: the wiring helper " + name
                            + " stopped answering (" + e.getMessage() + ")");
                }
            }
        }
    }

    /** The helper's agent, attached once (and again once it is gone). */
    private synchronized SidecarAgent agent() {
        if (agent == null || agent.gone()) {
            forget(agent);
            String helper = helper();
            agent = SidecarAgent.attached(helper, DockerAttach.to(docker, helper));
        }
        return agent;
    }

    private synchronized void forget(SidecarAgent gone) {
        if (gone != null) {
            gone.close();
        }
        if (agent == gone) {
            agent = null;
        }
    }

    /**
     * Running, and made by this version: a helper left by an older app lacks CAP_CHOWN or runs no agent, and is
     * replaced.
     */
    private boolean helperRunning() {
        try {
            var helper = docker.inspectContainerCmd(name).exec();
            Capability[] added = helper.getHostConfig().getCapAdd();
            Map<String, String> labels = helper.getConfig().getLabels();
            return Boolean.TRUE.equals(helper.getState().getRunning())
                    && added != null
                    && List.of(added).containsAll(CAPABILITIES)
                    && labels != null
                    && Labels.AGENT_VERSION.equals(labels.get(Labels.AGENT));
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
                .withCapAdd(CAPABILITIES.toArray(Capability[]::new))
                .withSecurityOpts(List.of("no-new-privileges"))
                .withMemory(64L * 1024 * 1024)
                .withPidsLimit(64L)
                .withInit(true);
        try {
            docker.createContainerCmd(image)
                    .withName(name)
                    .withLabels(Labels.agentService(instance, LabelKeys.ROLE_WIRING))
                    // Its main process runs the wiring scripts (SidecarAgent), read from its standard input.
                    .withCmd(SidecarAgent.command())
                    .withStdinOpen(true)
                    .withHostConfig(host)
                    .exec();
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
        forget(agent);
        try {
            docker.removeContainerCmd(name).withForce(true).exec();
        } catch (RuntimeException e) {
            // Gone already, or the engine is down; the next start replaces it.
        }
    }
}
