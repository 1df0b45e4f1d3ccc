package dev.tclab.runtime.uml;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.core.DockerClientConfig;
import dev.tclab.config.TclabConfig;
import dev.tclab.runtime.CpuPriority;
import dev.tclab.runtime.EngineStatus;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.LabProgressListener;
import dev.tclab.runtime.LabProgressListener.Stage;
import dev.tclab.runtime.LabSpec;
import dev.tclab.runtime.LabStartException;
import dev.tclab.runtime.LabelKeys;
import dev.tclab.runtime.NodeStatus;
import dev.tclab.runtime.ParallelCalls;
import dev.tclab.runtime.agent.SidecarAgent;
import dev.tclab.runtime.agent.UmlAgentRuntime;
import dev.tclab.runtime.agent.UmlLab;
import dev.tclab.runtime.agent.UmlScripts;
import dev.tclab.runtime.docker.CpuWeights;
import dev.tclab.runtime.docker.DockerAttach;
import dev.tclab.runtime.docker.EngineCalls;
import dev.tclab.runtime.docker.Labels;
import dev.tclab.runtime.docker.NodeContainers;
import dev.tclab.runtime.topology.Topology;
import io.smallrye.common.annotation.Identifier;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Labs in User-Mode Linux: each lab is one container on the Docker engine whose main process is a UML kernel (Debian's
 * {@code linux.uml}, every qdisc, classifier and action as a module) with the lab image as its read-only root. Inside
 * it each node is its own network, mount, PID, UTS and IPC namespace, the links are veth pairs, and the agent (the
 * measurement sidecars' program) runs in the kernel's root namespaces, reached over the kernel's console, which is the
 * container's standard input and output. The container has no capability at all and Docker's default seccomp profile:
 * what a learner's NET_ADMIN reaches is the lab's own kernel, never the host's. What happens inside the kernel (the
 * lab's nodes and links, checks, samplers, terminals) is the same on Kubernetes ({@link UmlLab}, {@link
 * UmlAgentRuntime}); this class says how a kernel runs on the Docker engine and how its console is reached.
 */
@ApplicationScoped
@Identifier("uml")
public class UmlLabRuntime extends UmlAgentRuntime {

    private static final long MIB = 1024L * 1024;
    /**
     * Host processes beside the nodes' (each capped at {@code tclab.lab.pids} inside the kernel, lab.pl): the kernel's
     * own, init and the agent's forks, so that nodes at their caps leave the platform room.
     */
    private static final int PLATFORM_PIDS = 64;

    private final DockerClient docker;
    private final String instance;
    private final String image;
    private final TclabConfig.Lab limits;
    private final int kernelMemoryMib;
    private final Duration startTimeout;
    private final NodeContainers containers;
    private final EngineCalls calls;
    private final UmlLab umlLab;
    private final CpuWeights weights;

    public UmlLabRuntime(DockerClient docker, DockerClientConfig clientConfig, TclabConfig config) {
        this.docker = docker;
        this.instance = config.instance();
        this.image = config.lab().umlImage();
        this.limits = config.lab();
        this.kernelMemoryMib = config.lab().umlMemoryMib();
        this.startTimeout = config.lab().startTimeout();
        this.containers = new NodeContainers(docker, config);
        this.calls = new EngineCalls(docker, clientConfig);
        this.umlLab = new UmlLab(config.lab());
        this.weights = new CpuWeights(docker, instance);
    }

    static String containerName(String labId) {
        return "tclab-" + labId + ".uml";
    }

    @Override
    public EngineStatus engine() {
        return calls.engine();
    }

    @Override
    public boolean imagePresent(String name) throws EngineUnavailableException {
        return calls.imagePresent(name);
    }

    @Override
    public void start(LabSpec spec, LabProgressListener progress) throws LabStartException, EngineUnavailableException {
        Topology topology = spec.topology();
        long begin = System.nanoTime();
        long deadline = begin + startTimeout.toNanos();
        try {
            progress.onStage(Stage.CREATING, "a kernel for " + topology.nodes().size() + " nodes");
            SidecarAgent agent = boot(spec, containerName(spec.labId()), ParallelCalls.remaining(deadline));
            agents.started(spec.labId(), agent, List.copyOf(topology.nodes().keySet()));
            umlLab.build(spec.labId(), topology, agent, progress, begin, deadline);
        } catch (LabStartException | EngineUnavailableException | RuntimeException e) {
            stopQuietly(spec.labId());
            throw e;
        }
    }

    /** Creates and starts the lab's container and waits for the agent in its kernel to answer. */
    private SidecarAgent boot(LabSpec spec, String name, Duration timeout)
            throws LabStartException, EngineUnavailableException {
        int nodes = spec.topology().nodes().size();
        Instant expires = containers.expiry(spec.pooled());
        if (!calls.imagePresent(image)) {
            throw new LabStartException("the User-Mode Linux lab image " + image + " is missing on the Docker engine:"
                    + " build it with lab-image/build.sh --uml (bin/ensure-docker does when it is missing)");
        }
        String id = calls.call(() -> docker.createContainerCmd(image)
                .withName(name)
                .withHostName(spec.labId())
                .withLabels(Labels.uml(instance, spec, expires))
                .withEnv(List.of(
                        UmlScripts.INIT_ENV + "=" + UmlScripts.init(),
                        UmlScripts.AGENT_ENV + "=" + SidecarAgent.script(),
                        UmlScripts.LAB_ENV + "=" + UmlScripts.lab()))
                .withCmd(UmlScripts.boot(kernelMemoryMib))
                .withStdinOpen(true)
                .withHostConfig(hostConfig(nodes))
                .exec()
                .getId());
        try {
            return SidecarAgent.onConsole(name, DockerAttach.thenStart(docker, id), timeout);
        } catch (SidecarAgent.Gone e) {
            throw new LabStartException("the lab's kernel did not come up: " + e.getMessage());
        } catch (DockerException e) {
            throw new LabStartException(
                    "the Docker engine refused: " + e.getMessage().trim(), e);
        }
    }

    /**
     * No capability at all (UML needs none: it traces its own processes), Docker's default seccomp profile, no
     * network, a read-only root, and limits: the kernel's memory is a file on the /dev/shm tmpfs (which must allow
     * exec, for UML's ptrace mode), charged to the container like the rest.
     */
    private HostConfig hostConfig(int nodes) {
        long memory = (long) UmlScripts.containerMemoryMib(kernelMemoryMib) * MIB;
        return HostConfig.newHostConfig()
                .withNetworkMode("none")
                .withCapDrop(Capability.ALL)
                .withSecurityOpts(List.of("no-new-privileges"))
                .withMemory(memory)
                .withMemorySwap(memory)
                .withNanoCPUs((long) (limits.cpus() * 1_000_000_000L))
                // The whole lab is this one container (CpuWeights).
                .withCpuShares(CpuWeights.atRest(1))
                .withPidsLimit(limits.pids() * Math.max(1, nodes) + PLATFORM_PIDS)
                .withReadonlyRootfs(true)
                .withTmpFs(Map.of(
                        "/dev/shm",
                        "rw,nosuid,nodev,exec,size=" + UmlScripts.shmMib(kernelMemoryMib) + "m",
                        UmlScripts.DIR,
                        "rw,nosuid,nodev,exec,size=1m",
                        "/tmp",
                        "rw,nosuid,nodev,noexec,size=8m"))
                .withLogConfig(NodeContainers.NO_LOG);
    }

    @Override
    public CpuPriority raiseCpuPriority(String labId) {
        return weights.raise(labId);
    }

    /**
     * Kills and removes the lab's container. No halt first: the kernel's root is read-only and everything it wrote is
     * in its own memory, so there is nothing to save (its init powers the kernel off by itself if its agent dies).
     */
    @Override
    public void stop(String labId) throws EngineUnavailableException {
        agents.forget(labId);
        weights.forget(labId);
        calls.call(() -> {
            for (Container c : ownContainers(labId)) {
                containers.remove(c.getId());
            }
            return null;
        });
    }

    private List<Container> ownContainers(String labId) {
        return docker.listContainersCmd()
                .withShowAll(true)
                .withLabelFilter(withRole(Labels.labOf(instance, labId)))
                .exec();
    }

    /**
     * Every node of a lab whose kernel runs counts as running: they live and die with it. A kernel another build
     * booted counts as dead ({@link UmlScripts#OTHER_BUILD}): adoption and the cull end its lab, saying why.
     */
    @Override
    public List<NodeStatus> status(String labId) throws EngineUnavailableException {
        return calls.call(() -> {
            List<NodeStatus> nodes = new ArrayList<>();
            for (Container c : ownContainers(labId)) {
                boolean ours = UmlScripts.bootedByThisBuild(c.getLabels());
                boolean running = "running".equals(c.getState());
                for (String node : nodesOf(c.getLabels())) {
                    nodes.add(new NodeStatus(node, running && ours, ours ? c.getState() : UmlScripts.OTHER_BUILD));
                }
            }
            return nodes;
        });
    }

    private static List<String> nodesOf(Map<String, String> labels) {
        String nodes = labels == null ? null : labels.get(Labels.NODES);
        return nodes == null || nodes.isEmpty() ? List.of() : Arrays.asList(nodes.split(","));
    }

    /** A lab's nodes as its container's label names them, when its kernel runs and this build booted it. */
    @Override
    protected List<String> runningNodes(String labId) throws EngineUnavailableException {
        List<Container> found = calls.call(() -> ownContainers(labId));
        return found.isEmpty()
                        || !"running".equals(found.get(0).getState())
                        || !UmlScripts.bootedByThisBuild(found.get(0).getLabels())
                ? List.of()
                : nodesOf(found.get(0).getLabels());
    }

    @Override
    protected SidecarAgent attach(String labId) throws SidecarAgent.Gone, EngineUnavailableException {
        List<Container> found = calls.call(() -> ownContainers(labId));
        if (found.isEmpty()) {
            throw new SidecarAgent.Gone("its container is gone");
        }
        return SidecarAgent.onConsole(
                containerName(labId), DockerAttach.to(docker, found.get(0).getId()), Duration.ofSeconds(10));
    }

    @Override
    protected SidecarAgent bootProbe(LabSpec spec, Duration timeout)
            throws LabStartException, EngineUnavailableException {
        return boot(spec, containerName(spec.labId()), timeout);
    }

    @Override
    public Set<String> labsOnEngine() throws EngineUnavailableException {
        return calls.labs(withRole(Labels.instance(instance)));
    }

    @Override
    public Set<String> removeExpiredLabs(Instant now) throws EngineUnavailableException {
        Set<String> removed = calls.removeExpired(withRole(Labels.all()), now, containers::remove);
        removed.forEach(agents::forget);
        return removed;
    }

    private static Map<String, String> withRole(Map<String, String> labels) {
        Map<String, String> filter = new HashMap<>(labels);
        filter.put(LabelKeys.ROLE, Labels.ROLE_UML);
        return filter;
    }

    @PreDestroy
    void close() {
        agents.closeAll();
    }
}
