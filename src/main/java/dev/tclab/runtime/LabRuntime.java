package dev.tclab.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The seam between tclab and whatever runs lab containers (Docker, Kubernetes, User-Mode Linux): the calls on one
 * lab. The calls on the engine as a whole are {@link LabEngine}'s; a runtime implements both
 * ({@link RuntimeAdapter}). Nothing above these interfaces talks to a container engine directly. Every method blocks:
 * call it from a worker thread, never from the Vert.x event loop.
 */
public interface LabRuntime {

    /**
     * Why a lab whose own kernel stopped answering ({@link #silentKernels}) failed, in the learner's words: its page
     * and its terminals say it.
     */
    String KERNEL_SILENT = "The lab's kernel stopped answering; Reset starts it again.";

    /**
     * Starts a lab and returns once it is ready: nodes created and started (in parallel), what measures them ready,
     * links wired with the topology's interface names, sysctls and setup commands applied (in the nodes themselves).
     * On failure, everything already created is removed before the exception is thrown.
     */
    void start(LabSpec spec, LabProgressListener progress) throws LabStartException, EngineUnavailableException;

    /**
     * Stops and removes every container of the lab (nodes and what measures them). Idempotent: an unknown or already
     * removed lab is done.
     */
    void stop(String labId) throws EngineUnavailableException;

    /**
     * Stops the lab as {@link #stop} does, ignoring every failure: for what a failed start left behind, whose own
     * failure is the one to report. The reaper removes whatever is left once the engine answers again.
     */
    default void stopQuietly(String labId) {
        try {
            stop(labId);
        } catch (EngineUnavailableException | RuntimeException e) {
            // Left to the reaper.
        }
    }

    /** The state of each node of the lab, as the engine sees it now. */
    List<NodeStatus> status(String labId) throws EngineUnavailableException;

    /**
     * One heartbeat (every few seconds) for the kernels of the {@code running} labs that have one of their own: returns
     * the labs whose kernel has stopped answering, whose terminals are told so. Without an engine call: a lab's
     * container may run while its kernel hangs (a UML kernel spinning on a core), which {@link #status} cannot see.
     * Labs on the host's kernel share it with the app's, and are never in the answer.
     */
    default Set<String> silentKernels(Set<String> running) {
        return Set.of();
    }

    /**
     * Runs a command with the platform's own tools in the node's network namespace (never a binary from the
     * learner's filesystem) and captures its output, exit code and whether it timed out. Used by checks and anything
     * else that measures: it sees the node's interfaces, qdiscs, addresses and sockets, not its files or processes.
     */
    ExecResult exec(String labId, String node, List<String> command, Duration timeout)
            throws EngineUnavailableException, NodeNotFoundException;

    /**
     * Runs {@code steps} one after another as {@link #exec} runs each, and returns their results in order. A runtime
     * whose exec is costly runs them in one exec (see {@link CommandSequence}).
     */
    default List<ExecResult> execAll(String labId, String node, List<CommandSequence.Step> steps)
            throws EngineUnavailableException, NodeNotFoundException {
        List<ExecResult> results = new ArrayList<>();
        for (CommandSequence.Step step : steps) {
            results.add(exec(labId, node, step.command(), step.timeout()));
        }
        return results;
    }

    /**
     * Starts a long-running platform-side process in the node's network namespace (like {@link #exec}, without a
     * TTY) and streams its output to {@code listener} until it exits or the returned stream is closed. For samplers.
     */
    ProcessStream stream(String labId, String node, List<String> command, StreamListener listener)
            throws EngineUnavailableException, NodeNotFoundException;

    /**
     * Starts a process with a pseudo-terminal inside the learner's node itself (its files, processes and tools) and
     * streams its output to {@code listener} until it exits or the returned stream is closed. For terminals only:
     * nothing read from it may count as a measurement.
     */
    ProcessStream shell(String labId, String node, List<String> command, StreamListener listener)
            throws EngineUnavailableException, NodeNotFoundException;

    /**
     * Whether the node runs as many processes as its process limit allows, so nothing in it can fork (a fork bomb):
     * a new shell there prints nothing until a process ends. A runtime that cannot tell answers false.
     */
    default boolean atProcessLimit(String labId, String node) throws EngineUnavailableException, NodeNotFoundException {
        return false;
    }

    /**
     * Whether the lab runs in a kernel of its own (User-Mode Linux) rather than in the host's: there every packet is
     * moved by a kernel the host runs as a process, so a flow costs the host many times what it costs in its own
     * kernel (the measurement slots charge it so).
     */
    default boolean runsOwnKernel(String labId) throws EngineUnavailableException {
        return false;
    }

    /**
     * Gives the lab a larger share of the host's CPUs than labs that are not measuring, until the returned priority is
     * closed: a learner's CPU hog in another lab must not fail this lab's check. Calls for one lab nest (the share
     * falls back when the last closes). A runtime that cannot weigh CPU returns {@link CpuPriority#NONE}; failing to
     * raise never fails the check.
     */
    default CpuPriority raiseCpuPriority(String labId) {
        return CpuPriority.NONE;
    }
}
