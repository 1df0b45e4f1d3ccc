package dev.tclab.runtime;

import dev.tclab.runtime.topology.Topology;
import dev.tclab.runtime.topology.TopologySource;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Runs each lab on the kernel its lab.yml asks for ({@code kernel:}): on the host's kernel ({@code host}), in a
 * User-Mode Linux kernel of its own ({@code uml}), or in UML only when the host's kernel lacks a feature the lesson
 * requires or its guarded blocks choose on ({@code auto}). A lab keeps the runtime it started on; one the app did not
 * start (adopted after a restart) is on UML when the UML runtime knows it.
 */
public final class KernelChoice implements RuntimeAdapter {

    private final RuntimeAdapter host;
    private final Supplier<RuntimeAdapter> uml;
    private final TopologySource topologies;
    /** The runtime of each lab this choice started or found, by lab id. */
    private final Map<String, LabRuntime> labs = new ConcurrentHashMap<>();
    /** Labs whose check measures now, with how many of their raises are open ({@link #raiseCpuPriority}). */
    private final Map<String, Integer> measuring = new ConcurrentHashMap<>();

    private volatile KernelCapabilities hostKernel;

    KernelChoice(RuntimeAdapter host, Supplier<RuntimeAdapter> uml, TopologySource topologies) {
        this.host = host;
        this.uml = uml;
        this.topologies = topologies;
    }

    /** The host's runtime: what the engine, its images and its kernel are asked through. */
    public RuntimeAdapter host() {
        return host;
    }

    /**
     * Whether the lesson's labs run in UML: its lab.yml says uml, or auto and the host lacks a feature the lesson
     * requires or uses (so that its checks and solutions get the kernel they name, not a fallback).
     */
    boolean inUml(Topology topology, String lesson) throws EngineUnavailableException {
        return switch (topology.kernel()) {
            case HOST -> false;
            case UML -> true;
            case AUTO -> {
                KernelCapabilities kernel = hostKernel();
                yield !topologies.kernelFeaturesUsedBy(lesson).stream().allMatch(kernel::supports);
            }
        };
    }

    private KernelCapabilities hostKernel() throws EngineUnavailableException {
        KernelCapabilities known = hostKernel;
        if (known == null) {
            known = host.probeKernel();
            hostKernel = known;
        }
        return known;
    }

    @Override
    public EngineStatus engine() {
        return host.engine();
    }

    @Override
    public boolean imagePresent(String image) throws EngineUnavailableException {
        return host.imagePresent(image);
    }

    @Override
    public void start(LabSpec spec, LabProgressListener progress) throws LabStartException, EngineUnavailableException {
        LabRuntime runtime = inUml(spec.topology(), spec.lesson()) ? uml.get() : host;
        labs.put(spec.labId(), runtime);
        runtime.start(spec, progress);
    }

    @Override
    public void stop(String labId) throws EngineUnavailableException {
        LabRuntime runtime = runtimeOf(labId);
        labs.remove(labId);
        runtime.stop(labId);
    }

    @Override
    public List<NodeStatus> status(String labId) throws EngineUnavailableException {
        return runtimeOf(labId).status(labId);
    }

    /** Asks the UML runtime, for the running labs this choice knows it runs (labs found on it are remembered). */
    @Override
    public Set<String> silentKernels(Set<String> running) {
        Set<String> inUml = new HashSet<>();
        for (String labId : running) {
            LabRuntime runtime = labs.get(labId);
            if (runtime != null && runtime != host) {
                inUml.add(labId);
            }
        }
        return inUml.isEmpty() ? Set.of() : uml.get().silentKernels(inUml);
    }

    @Override
    public ExecResult exec(String labId, String node, List<String> command, Duration timeout)
            throws EngineUnavailableException, NodeNotFoundException {
        return runtimeOf(labId).exec(labId, node, command, timeout);
    }

    @Override
    public List<ExecResult> execAll(String labId, String node, List<CommandSequence.Step> steps)
            throws EngineUnavailableException, NodeNotFoundException {
        return runtimeOf(labId).execAll(labId, node, steps);
    }

    @Override
    public ProcessStream stream(String labId, String node, List<String> command, StreamListener listener)
            throws EngineUnavailableException, NodeNotFoundException {
        return runtimeOf(labId).stream(labId, node, command, listener);
    }

    @Override
    public ProcessStream shell(String labId, String node, List<String> command, StreamListener listener)
            throws EngineUnavailableException, NodeNotFoundException {
        return runtimeOf(labId).shell(labId, node, command, listener);
    }

    @Override
    public boolean atProcessLimit(String labId, String node) throws EngineUnavailableException, NodeNotFoundException {
        return runtimeOf(labId).atProcessLimit(labId, node);
    }

    @Override
    public boolean runsOwnKernel(String labId) throws EngineUnavailableException {
        return runtimeOf(labId).runsOwnKernel(labId);
    }

    /** Raises the lab's share, and marks the lab as measuring in {@link #cpuTimes} until the last raise closes. */
    @Override
    public CpuPriority raiseCpuPriority(String labId) {
        CpuPriority raised;
        try {
            raised = runtimeOf(labId).raiseCpuPriority(labId);
        } catch (EngineUnavailableException e) {
            // The measurement that asked fails on its own when the engine is gone.
            raised = CpuPriority.NONE;
        }
        measuring.merge(labId, 1, Integer::sum);
        CpuPriority lab = raised;
        AtomicBoolean closed = new AtomicBoolean();
        return () -> {
            if (closed.compareAndSet(false, true)) {
                lab.close();
                measuring.computeIfPresent(labId, (id, open) -> open > 1 ? open - 1 : null);
            }
        };
    }

    /** One engine holds both runtimes' labs: the host runtime reads them all, marked measuring or not. */
    @Override
    public Optional<CpuTimes> cpuTimes() throws EngineUnavailableException {
        return host.cpuTimes()
                .map(times -> new CpuTimes(
                        times.readNanos(),
                        times.hostCores(),
                        times.hostBusyNanos(),
                        times.platformNanos(),
                        times.containers().stream()
                                .map(c -> c.measuring(measuring.containsKey(c.labId())))
                                .toList()));
    }

    @Override
    public Set<String> labsOnEngine() throws EngineUnavailableException {
        Set<String> all = new HashSet<>(host.labsOnEngine());
        all.addAll(uml.get().labsOnEngine());
        return all;
    }

    @Override
    public Set<String> removeExpiredLabs(Instant now) throws EngineUnavailableException {
        Set<String> removed = new HashSet<>(host.removeExpiredLabs(now));
        removed.addAll(uml.get().removeExpiredLabs(now));
        labs.keySet().removeAll(removed);
        return removed;
    }

    /** The host's kernel: what lessons on {@code kernel: host} get, and what {@code auto} decides on. */
    @Override
    public KernelCapabilities probeKernel() throws EngineUnavailableException {
        KernelCapabilities kernel = host.probeKernel();
        hostKernel = kernel;
        return kernel;
    }

    /** The UML kernel's features for a lesson whose labs run in UML; empty for one on the host's kernel. */
    @Override
    public Optional<KernelCapabilities> ownKernel(Topology topology, String lesson) throws EngineUnavailableException {
        return inUml(topology, lesson) ? Optional.of(uml.get().probeKernel()) : Optional.empty();
    }

    @Override
    public Optional<KernelCapabilities> ownKernelIfProbed() {
        return uml.get().ownKernelIfProbed();
    }

    @Override
    public boolean runsOwnKernel(Topology topology, String lesson) throws EngineUnavailableException {
        return inUml(topology, lesson);
    }

    /** The labs whose runtime this choice remembers. */
    Set<String> knownLabs() {
        return Set.copyOf(labs.keySet());
    }

    /**
     * A lab not started here is looked up: on UML when the UML runtime has its nodes, else on the host. Only a lab
     * found is remembered, so asking after labs that are gone does not grow the map.
     */
    private LabRuntime runtimeOf(String labId) throws EngineUnavailableException {
        LabRuntime known = labs.get(labId);
        if (known != null) {
            return known;
        }
        if (!uml.get().status(labId).isEmpty()) {
            labs.putIfAbsent(labId, uml.get());
            return labs.get(labId);
        }
        if (!host.status(labId).isEmpty()) {
            labs.putIfAbsent(labId, host);
            return labs.get(labId);
        }
        return host;
    }
}
