package dev.tclab.lab.uml;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.core.DockerClientConfig;
import dev.tclab.config.TclabConfig;
import dev.tclab.lab.docker.EngineCalls;
import dev.tclab.lab.docker.Labels;
import dev.tclab.lab.docker.NodeContainers;
import dev.tclab.lab.docker.SidecarAgent;
import dev.tclab.lab.runtime.CommandSequence;
import dev.tclab.lab.runtime.EngineStatus;
import dev.tclab.lab.runtime.EngineUnavailableException;
import dev.tclab.lab.runtime.ExecResult;
import dev.tclab.lab.runtime.KernelCapabilities;
import dev.tclab.lab.runtime.KernelProbe;
import dev.tclab.lab.runtime.LabProgressListener;
import dev.tclab.lab.runtime.LabProgressListener.Stage;
import dev.tclab.lab.runtime.LabSpec;
import dev.tclab.lab.runtime.LabStartException;
import dev.tclab.lab.runtime.LabelKeys;
import dev.tclab.lab.runtime.NodeNotFoundException;
import dev.tclab.lab.runtime.NodeStatus;
import dev.tclab.lab.runtime.ParallelCalls;
import dev.tclab.lab.runtime.ProcessStream;
import dev.tclab.lab.runtime.RuntimeAdapter;
import dev.tclab.lab.runtime.StreamListener;
import dev.tclab.lab.topology.Topology;
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
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Labs in User-Mode Linux: each lab is one container on the Docker engine whose main process is a UML kernel (Debian's
 * {@code linux.uml}, every qdisc, classifier and action as a module) with the lab image as its read-only root. Inside
 * it each node is its own network, mount, PID, UTS and IPC namespace, the links are veth pairs, and the agent (the
 * measurement sidecars' program) runs in the kernel's root namespaces, reached over the kernel's console, which is the
 * container's standard input and output. The container has no capability at all and Docker's default seccomp profile:
 * what a learner's NET_ADMIN reaches is the lab's own kernel, never the host's.
 */
@ApplicationScoped
@Identifier("uml")
public class UmlLabRuntime implements RuntimeAdapter {

    private static final Logger LOG = Logger.getLogger(UmlLabRuntime.class);
    private static final long MIB = 1024L * 1024;
    /** Beside the kernel's memory (a file in /dev/shm, charged to the container): its host-side processes. */
    private static final int CONTAINER_OVERHEAD_MIB = 96;
    /**
     * Host processes beside the nodes' (each capped at {@code tclab.lab.pids} inside the kernel, lab.pl): the kernel's
     * own, init and the agent's forks, so that nodes at their caps leave the platform room.
     */
    private static final int PLATFORM_PIDS = 64;

    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(60);

    private final DockerClient docker;
    private final String instance;
    private final String image;
    private final TclabConfig.Lab limits;
    private final int kernelMemoryMib;
    private final Duration startTimeout;
    private final NodeContainers containers;
    private final EngineCalls calls;
    /** The attached agent of each lab's kernel, by lab id. */
    private final Map<String, SidecarAgent> agents = new ConcurrentHashMap<>();
    /** The nodes of each lab, as its container's label names them. */
    private final Map<String, List<String>> nodes = new ConcurrentHashMap<>();

    private volatile KernelCapabilities kernel;

    public UmlLabRuntime(DockerClient docker, DockerClientConfig clientConfig, TclabConfig config) {
        this.docker = docker;
        this.instance = config.instance();
        this.image = config.lab().umlImage();
        this.limits = config.lab();
        this.kernelMemoryMib = config.lab().umlMemoryMib();
        this.startTimeout = config.lab().startTimeout();
        this.containers = new NodeContainers(docker, config);
        this.calls = new EngineCalls(docker, clientConfig);
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
            agents.put(spec.labId(), agent);
            long booted = System.nanoTime();
            progress.onStage(Stage.WIRING, topology.links().size() + " links");
            // One request makes every node, link and sysctl, and one more runs every node's setup: each request is
            // perl in a fork of the agent, which starts no program for it (see lab.pl).
            runLab(
                    agent,
                    "starting the nodes",
                    UmlScripts.wire(topology, diskCaps(topology.nodes().size()), limits.pids()),
                    deadline);
            long wired = System.nanoTime();
            progress.onStage(Stage.CONFIGURING, "interfaces, addresses and setup commands");
            List<String> setup = UmlScripts.setup(topology);
            if (!setup.isEmpty()) {
                runLab(agent, "setting up the nodes", setup, deadline);
            }
            long ready = System.nanoTime();
            LOG.infof(
                    "UML lab %s (%d nodes) ready in %d ms: its kernel's agent answering after %d ms, the nodes and"
                            + " links made in %d ms more, setup commands %d ms",
                    spec.labId(),
                    topology.nodes().size(),
                    (ready - begin) / 1_000_000,
                    (booted - begin) / 1_000_000,
                    (wired - booted) / 1_000_000,
                    (ready - wired) / 1_000_000);
            progress.onStage(Stage.READY, "");
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
            calls.call(() -> docker.startContainerCmd(id).exec());
            return SidecarAgent.onConsole(docker, id, timeout);
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
        long memory = (long) (kernelMemoryMib + CONTAINER_OVERHEAD_MIB) * MIB;
        return HostConfig.newHostConfig()
                .withNetworkMode("none")
                .withCapDrop(Capability.ALL)
                .withSecurityOpts(List.of("no-new-privileges"))
                .withMemory(memory)
                .withMemorySwap(memory)
                .withNanoCPUs((long) (limits.cpus() * 1_000_000_000L))
                .withPidsLimit(limits.pids() * Math.max(1, nodes) + PLATFORM_PIDS)
                .withReadonlyRootfs(true)
                .withTmpFs(Map.of(
                        "/dev/shm",
                        "rw,nosuid,nodev,exec,size=" + (kernelMemoryMib + 16) + "m",
                        UmlScripts.DIR,
                        "rw,nosuid,nodev,exec,size=1m",
                        "/tmp",
                        "rw,nosuid,nodev,noexec,size=8m"))
                .withLogConfig(NodeContainers.NO_LOG);
    }

    /** Each node's /tmp, /root and /run sizes in a lab of {@code nodes} nodes: see {@link NodeDiskCaps}. */
    NodeDiskCaps diskCaps(int nodes) {
        return NodeDiskCaps.fit(limits.tmpMib(), limits.homeMib(), limits.runMib(), kernelMemoryMib, nodes);
    }

    /** Runs lab.pl with {@code args} in the agent; its failure is thrown with what it said. */
    private void runLab(SidecarAgent agent, String what, List<String> args, long deadline) throws LabStartException {
        ExecResult result;
        try {
            result = agent.runPerl(UmlScripts.labLoader(), args, ParallelCalls.remaining(deadline));
        } catch (SidecarAgent.Gone e) {
            throw new LabStartException(what + " failed: the lab's kernel went away: " + e.getMessage());
        }
        if (result.timedOut()) {
            throw new LabStartException(
                    "the lab did not become ready within " + startTimeout.toSeconds() + " s (" + what + ")");
        }
        if (!result.ok()) {
            throw new LabStartException(what + " failed: " + (result.stderr() + result.stdout()).trim());
        }
    }

    /**
     * Kills and removes the lab's container. No halt first: the kernel's root is read-only and everything it wrote is
     * in its own memory, so there is nothing to save (its init powers the kernel off by itself if its agent dies).
     */
    @Override
    public void stop(String labId) throws EngineUnavailableException {
        SidecarAgent agent = agents.remove(labId);
        nodes.remove(labId);
        if (agent != null) {
            agent.close();
        }
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

    /** Every node of a lab whose kernel runs counts as running: they live and die with it. */
    @Override
    public List<NodeStatus> status(String labId) throws EngineUnavailableException {
        return calls.call(() -> {
            List<NodeStatus> nodes = new ArrayList<>();
            for (Container c : ownContainers(labId)) {
                boolean running = "running".equals(c.getState());
                for (String node : nodesOf(c.getLabels())) {
                    nodes.add(new NodeStatus(node, running, c.getState()));
                }
            }
            return nodes;
        });
    }

    private static List<String> nodesOf(Map<String, String> labels) {
        String nodes = labels == null ? null : labels.get(Labels.NODES);
        return nodes == null || nodes.isEmpty() ? List.of() : Arrays.asList(nodes.split(","));
    }

    @Override
    public ExecResult exec(String labId, String node, List<String> command, Duration timeout)
            throws EngineUnavailableException, NodeNotFoundException {
        SidecarAgent agent = agentOf(labId, node);
        try {
            return agent.run(UmlScripts.inNetwork(node, command), timeout);
        } catch (SidecarAgent.Gone e) {
            throw lost(labId, agent, e);
        }
    }

    /** One request for all: the agent runs them one after another in one shell. */
    @Override
    public List<ExecResult> execAll(String labId, String node, List<CommandSequence.Step> steps)
            throws EngineUnavailableException, NodeNotFoundException {
        if (steps.size() == 1) {
            return List.of(
                    exec(labId, node, steps.get(0).command(), steps.get(0).timeout()));
        }
        CommandSequence sequence = new CommandSequence(steps);
        return sequence.split(exec(labId, node, sequence.command(), sequence.timeout()));
    }

    @Override
    public ProcessStream stream(String labId, String node, List<String> command, StreamListener listener)
            throws EngineUnavailableException, NodeNotFoundException {
        SidecarAgent agent = agentOf(labId, node);
        try {
            return agent.stream(UmlScripts.inNetwork(node, command), false, listener);
        } catch (SidecarAgent.Gone e) {
            throw lost(labId, agent, e);
        }
    }

    /** The agent's own fork enters the node (lab.pl's enter) and becomes the command: no program runs before it. */
    @Override
    public ProcessStream shell(String labId, String node, List<String> command, StreamListener listener)
            throws EngineUnavailableException, NodeNotFoundException {
        SidecarAgent agent = agentOf(labId, node);
        try {
            return agent.terminalOfPerl(UmlScripts.labLoader(), UmlScripts.enter(node, command), listener);
        } catch (SidecarAgent.Gone e) {
            throw lost(labId, agent, e);
        }
    }

    private EngineUnavailableException lost(String labId, SidecarAgent agent, SidecarAgent.Gone e) {
        agents.remove(labId, agent);
        return new EngineUnavailableException("the kernel of lab " + labId + " does not answer: " + e.getMessage(), e);
    }

    /**
     * The lab's agent, attached on first use (a lab adopted after a restart of the app) and again once it went away;
     * throws {@link NodeNotFoundException} when the lab has no running kernel or no such node.
     */
    private SidecarAgent agentOf(String labId, String node) throws EngineUnavailableException, NodeNotFoundException {
        SidecarAgent known = agents.get(labId);
        if (known != null && !known.gone()) {
            if (!knownNode(labId, node)) {
                throw new NodeNotFoundException(labId, node);
            }
            return known;
        }
        List<Container> found = calls.call(() -> ownContainers(labId));
        if (found.isEmpty()
                || !"running".equals(found.get(0).getState())
                || !nodesOf(found.get(0).getLabels()).contains(node)) {
            throw new NodeNotFoundException(labId, node);
        }
        try {
            SidecarAgent agent = SidecarAgent.onConsole(docker, found.get(0).getId(), Duration.ofSeconds(10));
            nodes.put(labId, nodesOf(found.get(0).getLabels()));
            SidecarAgent previous = agents.put(labId, agent);
            if (previous != null) {
                previous.close();
            }
            return agent;
        } catch (SidecarAgent.Gone e) {
            throw new EngineUnavailableException(
                    "the kernel of lab " + labId + " does not answer: " + e.getMessage(), e);
        }
    }

    private boolean knownNode(String labId, String node) throws EngineUnavailableException {
        List<String> names = nodes.get(labId);
        if (names == null) {
            List<Container> found = calls.call(() -> ownContainers(labId));
            names = found.isEmpty() ? List.of() : nodesOf(found.get(0).getLabels());
            nodes.put(labId, names);
        }
        return names.contains(node);
    }

    @Override
    public Set<String> labsOnEngine() throws EngineUnavailableException {
        return calls.labs(withRole(Labels.instance(instance)));
    }

    @Override
    public Set<String> removeExpiredLabs(Instant now) throws EngineUnavailableException {
        Set<String> removed = calls.removeExpired(withRole(Labels.all()), now, containers::remove);
        for (String labId : removed) {
            SidecarAgent agent = agents.remove(labId);
            nodes.remove(labId);
            if (agent != null) {
                agent.close();
            }
        }
        return removed;
    }

    private static Map<String, String> withRole(Map<String, String> labels) {
        Map<String, String> filter = new HashMap<>(labels);
        filter.put(LabelKeys.ROLE, Labels.ROLE_UML);
        return filter;
    }

    /**
     * What the labs' kernel supports: probed once, in a kernel booted for it (the same for every lab); callers at the
     * same time wait for that one probe.
     */
    @Override
    public synchronized KernelCapabilities probeKernel() throws EngineUnavailableException {
        KernelCapabilities known = kernel;
        if (known != null) {
            return known;
        }
        String labId = "probe" + Long.toHexString(System.nanoTime());
        LabSpec spec = new LabSpec(labId, new Topology("probe", Map.of(), List.of()), LabSpec.POOL_OWNER, "probe");
        try {
            SidecarAgent agent = boot(spec, containerName(labId), PROBE_TIMEOUT);
            agents.put(labId, agent);
            kernel = KernelProbe.read(agent.run(List.of("sh", "-c", KernelProbe.SCRIPT), PROBE_TIMEOUT));
            return kernel;
        } catch (LabStartException | SidecarAgent.Gone e) {
            throw new EngineUnavailableException("could not probe the UML kernel: " + e.getMessage(), e);
        } finally {
            stopQuietly(labId);
        }
    }

    /** Every lab of this runtime has a UML kernel of its own. */
    @Override
    public Optional<KernelCapabilities> ownKernel(Topology topology, String lesson) throws EngineUnavailableException {
        return Optional.of(probeKernel());
    }

    @PreDestroy
    void close() {
        agents.values().forEach(SidecarAgent::close);
        agents.clear();
    }
}
