package dev.tclab.runtime.agent;

import dev.tclab.runtime.CommandSequence;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.KernelCapabilities;
import dev.tclab.runtime.KernelProbe;
import dev.tclab.runtime.LabSpec;
import dev.tclab.runtime.LabStartException;
import dev.tclab.runtime.NodeNotFoundException;
import dev.tclab.runtime.ProcessStream;
import dev.tclab.runtime.RuntimeAdapter;
import dev.tclab.runtime.StreamListener;
import dev.tclab.runtime.topology.Topology;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a runtime of User-Mode Linux labs answers through its labs' agents ({@link UmlAgents}), whichever engine
 * booted their kernels (a Docker container, a pod): checks, samplers and terminals. A runtime says how it finds a
 * lab's running kernel and attaches to its agent.
 */
public abstract class UmlAgentRuntime implements RuntimeAdapter {

    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(60);

    /** The attached agent of each lab's kernel. */
    protected final UmlAgents agents = new UmlAgents(new UmlAgents.Kernels() {
        @Override
        public List<String> runningNodes(String labId) throws EngineUnavailableException {
            return UmlAgentRuntime.this.runningNodes(labId);
        }

        @Override
        public SidecarAgent attach(String labId) throws SidecarAgent.Gone, EngineUnavailableException {
            return UmlAgentRuntime.this.attach(labId);
        }
    });

    private volatile KernelCapabilities kernel;

    /** The lab's nodes when its kernel runs; empty when it has no running kernel. */
    protected abstract List<String> runningNodes(String labId) throws EngineUnavailableException;

    /** Attaches to the agent in the lab's running kernel. */
    protected abstract SidecarAgent attach(String labId) throws SidecarAgent.Gone, EngineUnavailableException;

    /**
     * Boots a kernel for {@code spec} (no nodes: the probe's) and returns its agent once it answers, within
     * {@code timeout}; refusals of the engine are {@link LabStartException}s.
     */
    protected abstract SidecarAgent bootProbe(LabSpec spec, Duration timeout)
            throws LabStartException, EngineUnavailableException;

    /**
     * What the labs' kernel supports: probed once, in a kernel booted for it (the same kernel for every lab); callers
     * at the same time wait for that one probe.
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
            SidecarAgent agent = bootProbe(spec, PROBE_TIMEOUT);
            agents.started(labId, agent, List.of());
            kernel = KernelProbe.read(agent.run(List.of("sh", "-c", KernelProbe.SCRIPT), PROBE_TIMEOUT))
                    .inMode(agent.kernelMode());
            return kernel;
        } catch (LabStartException | SidecarAgent.Gone e) {
            throw new EngineUnavailableException("could not probe the UML kernel: " + e.getMessage(), e);
        } finally {
            stopQuietly(labId);
        }
    }

    @Override
    public Set<String> silentKernels(Set<String> running) {
        return agents.silentKernels(running);
    }

    @Override
    public ExecResult exec(String labId, String node, List<String> command, Duration timeout)
            throws EngineUnavailableException, NodeNotFoundException {
        return agents.exec(labId, node, command, timeout);
    }

    /** One request for all: the agent runs them one after another in one shell. */
    @Override
    public List<ExecResult> execAll(String labId, String node, List<CommandSequence.Step> steps)
            throws EngineUnavailableException, NodeNotFoundException {
        return CommandSequence.inOneExec(this, labId, node, steps);
    }

    @Override
    public ProcessStream stream(String labId, String node, List<String> command, StreamListener listener)
            throws EngineUnavailableException, NodeNotFoundException {
        return agents.stream(labId, node, command, listener);
    }

    @Override
    public ProcessStream shell(String labId, String node, List<String> command, StreamListener listener)
            throws EngineUnavailableException, NodeNotFoundException {
        return agents.shell(labId, node, command, listener);
    }

    @Override
    public boolean atProcessLimit(String labId, String node) throws EngineUnavailableException, NodeNotFoundException {
        return agents.atProcessLimit(labId, node);
    }

    /** Every lab of this runtime has a UML kernel of its own. */
    @Override
    public boolean runsOwnKernel(String labId) {
        return true;
    }

    /** Every lab of this runtime has a UML kernel of its own. */
    @Override
    public boolean runsOwnKernel(Topology topology, String lesson) {
        return true;
    }

    /** Every lab of this runtime has a UML kernel of its own. */
    @Override
    public Optional<KernelCapabilities> ownKernel(Topology topology, String lesson) throws EngineUnavailableException {
        return Optional.of(probeKernel());
    }

    @Override
    public Optional<KernelCapabilities> ownKernelIfProbed() {
        return Optional.ofNullable(kernel);
    }
}
