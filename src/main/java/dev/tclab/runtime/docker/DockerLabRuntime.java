package dev.tclab.runtime.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.core.DockerClientConfig;
import dev.tclab.common.WorkerThreads;
import dev.tclab.config.TclabConfig;
import dev.tclab.runtime.CommandSequence;
import dev.tclab.runtime.CpuPriority;
import dev.tclab.runtime.CpuTimes;
import dev.tclab.runtime.EngineStatus;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.KernelCapabilities;
import dev.tclab.runtime.KernelProbe;
import dev.tclab.runtime.LabProgressListener;
import dev.tclab.runtime.LabProgressListener.Stage;
import dev.tclab.runtime.LabScripts;
import dev.tclab.runtime.LabSpec;
import dev.tclab.runtime.LabStartException;
import dev.tclab.runtime.LabelKeys;
import dev.tclab.runtime.NodeNotFoundException;
import dev.tclab.runtime.NodeStatus;
import dev.tclab.runtime.ParallelCalls;
import dev.tclab.runtime.ProcessStream;
import dev.tclab.runtime.RuntimeAdapter;
import dev.tclab.runtime.StreamListener;
import dev.tclab.runtime.topology.Topology;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.common.annotation.Identifier;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Labs on a Docker engine. Each node is a hardened container with no Docker network at all; links are veth pairs
 * created straight into the nodes' network namespaces (see {@link Wiring}), so every lab gets the same addresses
 * and interface names, and lab traffic never leaves the lab.
 */
@ApplicationScoped
@Identifier("docker")
public class DockerLabRuntime implements RuntimeAdapter {

    private final DockerClient docker;
    private final String endpoint;
    private final String instance;
    private final String defaultImage;
    private final String measurementImage;
    private final NodeContainers containers;
    private final Wiring wiring;
    private final Duration startTimeout;
    private final ExecutorService pool = Executors.newCachedThreadPool(WorkerThreads.named("tclab-docker"));
    private final SidecarAgents agents;
    private final EngineCalls calls;
    private final ParallelCalls parallel;
    private final EngineCallTimes times;
    private final CpuWeights weights;
    /** Empty when the engine is not on this host: its containers' control groups are not here to read. */
    private final Optional<CgroupCpu> cgroups;

    public DockerLabRuntime(
            DockerClient docker, DockerClientConfig clientConfig, TclabConfig config, MeterRegistry metrics) {
        this.docker = docker;
        this.endpoint = clientConfig.getDockerHost().toString();
        this.instance = config.instance();
        this.defaultImage = config.lab().image();
        this.measurementImage = config.lab().measurementImage().orElse(defaultImage);
        this.containers = new NodeContainers(docker, config);
        this.times = new EngineCallTimes(metrics);
        this.wiring = new Wiring(docker, instance, config.lab().helperImage().orElse(defaultImage));
        this.startTimeout = config.lab().startTimeout();
        this.agents = new SidecarAgents(docker);
        this.calls = new EngineCalls(docker, clientConfig);
        this.weights = new CpuWeights(docker, instance);
        this.cgroups = endpoint.startsWith("unix://")
                ? Optional.of(CgroupCpu.ofThisHost(config.lab().cpus()))
                : Optional.empty();
        this.parallel = new ParallelCalls(pool, startTimeout, new ParallelCalls.EngineFailures() {
            @Override
            public LabStartException refused(RuntimeException e) {
                return e instanceof DockerException de
                        ? new LabStartException(
                                "the Docker engine refused: " + de.getMessage().trim(), de)
                        : null;
            }

            @Override
            public EngineUnavailableException unavailable(RuntimeException e) {
                return calls.unavailable(e);
            }
        });
    }

    @Override
    public EngineStatus engine() {
        return calls.engine();
    }

    @Override
    public boolean imagePresent(String image) throws EngineUnavailableException {
        return calls.imagePresent(image);
    }

    @Override
    public void start(LabSpec spec, LabProgressListener progress) throws LabStartException, EngineUnavailableException {
        Topology topology = spec.topology();
        long deadline = System.nanoTime() + startTimeout.toNanos();
        List<NodeContainers.Started> started = List.of();
        try {
            progress.onStage(Stage.CREATING, topology.nodes().size() + " nodes");
            List<Callable<NodeContainers.Started>> creations = new ArrayList<>();
            Instant expires = containers.expiry(spec.pooled());
            for (Topology.Node node : topology.nodes().values()) {
                String image = node.image() == null ? defaultImage : node.image();
                String setup = LabScripts.nodeSetup(node, topology.interfacesOf(node.name()));
                creations.add(() -> containers.createAndStart(
                        instance, spec, node, setup, image, measurementImage, expires, pool, times));
            }
            Map<String, Long> pids = new java.util.HashMap<>();
            List<Future<NodeContainers.Started>> nodesStarting =
                    creations.stream().map(pool::submit).toList();
            try {
                parallel.await(nodesStarting, deadline);
            } finally {
                // Each sidecar starts as soon as its node runs, while the other nodes start and the links are wired;
                // even when another node failed, they are waited for before the lab is removed.
                started = startedOf(nodesStarting);
            }
            started.forEach(node -> pids.put(node.node(), node.pid()));
            progress.onStage(Stage.WIRING, topology.links().size() + " links");
            wiring.connect(topology.links(), pids, ParallelCalls.remaining(deadline));
            progress.onStage(Stage.CONFIGURING, "interfaces, addresses and setup commands");
            List<Callable<Void>> setups = new ArrayList<>();
            for (NodeContainers.Started node : started) {
                setups.add(() -> {
                    configure(node, ParallelCalls.remaining(deadline));
                    return null;
                });
            }
            parallel.all(setups, deadline);
            parallel.await(
                    started.stream().map(NodeContainers.Started::sidecarStarted).toList(), deadline);
            progress.onStage(Stage.READY, "");
        } catch (LabStartException | EngineUnavailableException | RuntimeException e) {
            started.forEach(node -> node.setup().close());
            // A sidecar still being created would outlive the removal below.
            started.forEach(node -> waitQuietly(node.sidecarStarted()));
            stopQuietly(spec.labId());
            throw e;
        }
    }

    /** Brings the node's links up and runs its setup commands, stopping at the first that fails. */
    private void configure(NodeContainers.Started node, Duration timeout) throws LabStartException {
        ExecResult result =
                times.time(EngineCallTimes.ATTACH, () -> node.setup().run(timeout));
        if (!result.ok()) {
            throw new LabStartException("setting up node " + node.node() + " failed"
                    + (result.timedOut() ? " (timed out)" : "") + ": " + (result.stderr() + result.stdout()).trim());
        }
    }

    @Override
    public void stop(String labId) throws EngineUnavailableException {
        agents.forget(labId);
        weights.forget(labId);
        engineCall(() -> {
            List<Container> found = docker.listContainersCmd()
                    .withShowAll(true)
                    .withLabelFilter(Labels.labOf(instance, labId))
                    .exec();
            List<Future<Void>> removals = found.stream()
                    .map(c -> pool.submit(() -> {
                        containers.remove(c.getId());
                        return (Void) null;
                    }))
                    .toList();
            for (Future<?> removal : removals) {
                removal.get();
            }
            return null;
        });
    }

    /** The nodes that started (each with its sidecar starting). */
    private static List<NodeContainers.Started> startedOf(List<Future<NodeContainers.Started>> nodes) {
        List<NodeContainers.Started> started = new ArrayList<>();
        for (Future<NodeContainers.Started> node : nodes) {
            if (node.isDone() && !node.isCancelled()) {
                try {
                    started.add(node.get());
                } catch (ExecutionException e) {
                    // This node failed before its sidecar could start.
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        return started;
    }

    private static void waitQuietly(Future<?> task) {
        try {
            task.get(30, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            // Its failure is not the one being reported; whatever it left, the removal or the reaper takes.
        }
    }

    /** A node whose measurement sidecar is not running cannot be graded, so it counts as not running either. */
    @Override
    public List<NodeStatus> status(String labId) throws EngineUnavailableException {
        return engineCall(() -> {
            List<Container> found = docker.listContainersCmd()
                    .withShowAll(true)
                    .withLabelFilter(Labels.labOf(instance, labId))
                    .exec();
            Map<String, String> sidecarStates = new java.util.HashMap<>();
            found.stream()
                    .filter(c -> Labels.ROLE_SIDECAR.equals(c.getLabels().get(LabelKeys.ROLE)))
                    .forEach(c -> sidecarStates.put(c.getLabels().get(LabelKeys.NODE), c.getState()));
            return found.stream()
                    .filter(c -> LabelKeys.ROLE_NODE.equals(c.getLabels().get(LabelKeys.ROLE)))
                    .map(c -> {
                        String node = c.getLabels().get(LabelKeys.NODE);
                        String sidecar = sidecarStates.getOrDefault(node, "gone");
                        boolean running = "running".equals(c.getState());
                        if (running && !"running".equals(sidecar)) {
                            return new NodeStatus(node, false, "running, but what measures it is " + sidecar);
                        }
                        return new NodeStatus(node, running, c.getState());
                    })
                    .toList();
        });
    }

    @Override
    public ExecResult exec(String labId, String node, List<String> command, Duration timeout)
            throws EngineUnavailableException, NodeNotFoundException {
        try {
            return engineCall(() -> agents.run(NodeContainers.sidecarName(labId, node), command, timeout));
        } catch (NotFoundException | ConflictException e) {
            throw new NodeNotFoundException(labId, node);
        }
    }

    /** One exec for all: each exec costs the engine tens of milliseconds of CPU, and a class runs many at once. */
    @Override
    public List<ExecResult> execAll(String labId, String node, List<CommandSequence.Step> steps)
            throws EngineUnavailableException, NodeNotFoundException {
        return CommandSequence.inOneExec(this, labId, node, steps);
    }

    @Override
    public ProcessStream stream(String labId, String node, List<String> command, StreamListener listener)
            throws EngineUnavailableException, NodeNotFoundException {
        return attach(NodeContainers.sidecarName(labId, node), labId, node, command, false, listener);
    }

    @Override
    public ProcessStream shell(String labId, String node, List<String> command, StreamListener listener)
            throws EngineUnavailableException, NodeNotFoundException {
        return attach(NodeContainers.name(labId, node), labId, node, command, true, listener);
    }

    private ProcessStream attach(
            String container, String labId, String node, List<String> command, boolean tty, StreamListener listener)
            throws EngineUnavailableException, NodeNotFoundException {
        try {
            return engineCall(() -> new DockerProcessStream(
                    docker, container, command, tty, listener, pool, () -> containers.atProcessLimit(container)));
        } catch (NotFoundException | ConflictException e) {
            throw new NodeNotFoundException(labId, node);
        }
    }

    @Override
    public CpuPriority raiseCpuPriority(String labId) {
        return weights.raise(labId);
    }

    @Override
    public boolean atProcessLimit(String labId, String node) throws EngineUnavailableException, NodeNotFoundException {
        try {
            return engineCall(() -> containers.atProcessLimit(NodeContainers.name(labId, node)));
        } catch (NotFoundException | ConflictException e) {
            throw new NodeNotFoundException(labId, node);
        }
    }

    @Override
    public Set<String> labsOnEngine() throws EngineUnavailableException {
        return calls.labs(Labels.instance(instance));
    }

    @Override
    public Set<String> removeExpiredLabs(Instant now) throws EngineUnavailableException {
        return calls.removeExpired(Labels.all(), now, containers::remove);
    }

    @Override
    public KernelCapabilities probeKernel() throws EngineUnavailableException {
        return engineCall(() -> KernelProbe.read(containers.runThrowaway(
                instance, defaultImage, List.of("sh", "-c", KernelProbe.SCRIPT), Duration.ofSeconds(30))));
    }

    @PreDestroy
    void close() {
        agents.closeAll();
        wiring.remove();
        pool.shutdownNow();
    }

    /** A call to the engine: Docker's own API errors pass through; failing to reach the engine becomes a checked error. */
    /** This instance's running containers, UML labs' too (they share the engine), with the host's CPU time. */
    @Override
    public Optional<CpuTimes> cpuTimes() throws EngineUnavailableException {
        if (cgroups.isEmpty()) {
            return Optional.empty();
        }
        List<Container> running = engineCall(() -> docker.listContainersCmd()
                .withLabelFilter(Labels.instance(instance))
                .exec());
        return cgroups.get().read(running);
    }

    private <T> T engineCall(Callable<T> call) throws EngineUnavailableException {
        return calls.call(call);
    }
}
