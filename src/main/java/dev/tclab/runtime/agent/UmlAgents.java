package dev.tclab.runtime.agent;

import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.runtime.NodeNotFoundException;
import dev.tclab.runtime.ProcessLimit;
import dev.tclab.runtime.ProcessStream;
import dev.tclab.runtime.StreamListener;
import java.time.Duration;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The calls on a UML lab that go through its kernel's agent, the same whichever runtime booted the kernel: a check's
 * commands in a node's network namespace with the platform's tools, samplers, and terminals as the node's learner.
 * Each lab's agent is kept while it answers; a lab met without one (started by another app replica, or adopted after
 * a restart) or whose agent went away is attached anew.
 */
public final class UmlAgents {

    /** What a runtime knows of its labs' kernels. */
    public interface Kernels {
        /** The lab's nodes when its kernel runs; empty when it has no running kernel. */
        List<String> runningNodes(String labId) throws EngineUnavailableException;

        /** Attaches to the agent in the lab's running kernel. */
        SidecarAgent attach(String labId) throws SidecarAgent.Gone, EngineUnavailableException;
    }

    private static final Duration PROCESS_COUNT_TIMEOUT = Duration.ofSeconds(5);

    private final Kernels kernels;
    /** The attached agent of each lab's kernel, by lab id. */
    private final Map<String, SidecarAgent> agents = new ConcurrentHashMap<>();
    /** The nodes of each lab. */
    private final Map<String, List<String>> nodes = new ConcurrentHashMap<>();

    private final KernelHeartbeat heartbeat = new KernelHeartbeat(InstantSource.system());

    public UmlAgents(Kernels kernels) {
        this.kernels = kernels;
    }

    /** Keeps the agent of a lab this runtime booted, with its nodes. */
    public void started(String labId, SidecarAgent agent, List<String> labNodes) {
        agents.put(labId, agent);
        nodes.put(labId, List.copyOf(labNodes));
    }

    /** Closes and forgets the lab's agent (its lab is stopped or gone). */
    public void forget(String labId) {
        SidecarAgent agent = agents.remove(labId);
        nodes.remove(labId);
        if (agent != null) {
            agent.close();
        }
    }

    /**
     * One heartbeat for the {@code running} labs whose agent is kept (a lab adopted after a restart has one once a
     * terminal, sampler or check used it): returns those whose kernel said nothing for {@link KernelHeartbeat#SILENCE},
     * whose agents are abandoned, their terminals told {@link LabRuntime#KERNEL_SILENT}.
     */
    public Set<String> silentKernels(Set<String> running) {
        Map<String, SidecarAgent> heard = new HashMap<>();
        agents.forEach((labId, agent) -> {
            // An ended attachment is not the kernel's silence: the engine or the container went away (a status says
            // which). An agent gone otherwise (its output out of step: a hung kernel's last words once) still hears.
            if (running.contains(labId) && !agent.detached()) {
                heard.put(labId, agent);
            }
        });
        Set<String> silent = heartbeat.beat(heard);
        for (String labId : silent) {
            SidecarAgent agent = heard.get(labId);
            agents.remove(labId, agent);
            agent.abandon(LabRuntime.KERNEL_SILENT);
        }
        return silent;
    }

    public void closeAll() {
        agents.values().forEach(SidecarAgent::close);
        agents.clear();
        nodes.clear();
    }

    public ExecResult exec(String labId, String node, List<String> command, Duration timeout)
            throws EngineUnavailableException, NodeNotFoundException {
        SidecarAgent agent = agentOf(labId, node);
        try {
            return agent.run(UmlScripts.inNetwork(node, command), timeout);
        } catch (SidecarAgent.Gone e) {
            throw lost(labId, e);
        }
    }

    public ProcessStream stream(String labId, String node, List<String> command, StreamListener listener)
            throws EngineUnavailableException, NodeNotFoundException {
        SidecarAgent agent = agentOf(labId, node);
        try {
            return agent.stream(UmlScripts.inNetwork(node, command), false, listener);
        } catch (SidecarAgent.Gone e) {
            throw lost(labId, e);
        }
    }

    /** The agent's own fork enters the node (lab.pl's enter) and becomes the command: no program runs before it. */
    public ProcessStream shell(String labId, String node, List<String> command, StreamListener listener)
            throws EngineUnavailableException, NodeNotFoundException {
        SidecarAgent agent = agentOf(labId, node);
        try {
            return agent.terminalOfPerl(UmlScripts.labLoader(), UmlScripts.enter(node, command), listener);
        } catch (SidecarAgent.Gone e) {
            throw lost(labId, e);
        }
    }

    /**
     * Whether the node's cgroup in the lab's kernel runs as many processes as its limit allows ({@link ProcessLimit}):
     * counted by lab.pl in a fork of the agent, outside the node (which at its limit could not fork).
     */
    public boolean atProcessLimit(String labId, String node) throws EngineUnavailableException, NodeNotFoundException {
        SidecarAgent agent = agentOf(labId, node);
        ExecResult counted;
        try {
            counted = agent.runPerl(UmlScripts.labLoader(), UmlScripts.pids(node), PROCESS_COUNT_TIMEOUT);
        } catch (SidecarAgent.Gone e) {
            throw lost(labId, e);
        }
        String[] values = counted.stdout().trim().split(" ");
        if (!counted.ok() || values.length != 2 || !values[0].matches("\\d{1,9}")) {
            throw new IllegalStateException("the process count of " + node + " in lab " + labId + " is unreadable: "
                    + (counted.stdout() + counted.stderr()).trim());
        }
        // "max": no limit, never reached.
        return values[1].matches("\\d{1,9}")
                && ProcessLimit.reached(Long.parseLong(values[0]), Long.parseLong(values[1]));
    }

    /** The gone agent stays until a new one replaces it ({@link #agentOf}): the heartbeat still hears through it. */
    private EngineUnavailableException lost(String labId, SidecarAgent.Gone e) {
        return new EngineUnavailableException("the kernel of lab " + labId + " does not answer: " + e.getMessage(), e);
    }

    /**
     * The lab's agent, attached on first use and again once it went away; throws {@link NodeNotFoundException} when
     * the lab has no running kernel or no such node. A lab stopped elsewhere ends its agent's stream, so a kept agent
     * that still answers is a running kernel's.
     */
    private SidecarAgent agentOf(String labId, String node) throws EngineUnavailableException, NodeNotFoundException {
        SidecarAgent known = agents.get(labId);
        if (known != null && !known.gone()) {
            List<String> names = nodes.get(labId);
            if (names == null) {
                names = kernels.runningNodes(labId);
                nodes.put(labId, names);
            }
            if (!names.contains(node)) {
                throw new NodeNotFoundException(labId, node);
            }
            return known;
        }
        List<String> running = kernels.runningNodes(labId);
        if (!running.contains(node)) {
            throw new NodeNotFoundException(labId, node);
        }
        try {
            SidecarAgent agent = kernels.attach(labId);
            nodes.put(labId, running);
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
}
