package dev.tclab.lab;

import java.time.Duration;
import java.util.List;
import java.time.Instant;
import java.util.Set;

/**
 * The seam between tclab and whatever runs lab containers (Docker now; Kubernetes later). Nothing above this
 * interface talks to a container engine directly. Every method blocks: call it from a worker thread, never from
 * the Vert.x event loop.
 */
public interface LabRuntime {

    /** Whether the engine answers, and its version; never throws. */
    EngineStatus engine();

    /** Whether the image exists on the engine. */
    boolean imagePresent(String image) throws EngineUnavailableException;

    /**
     * Starts a lab and returns once it is ready: nodes created and started (in parallel), links wired with the
     * topology's interface names, sysctls and setup commands applied. On failure, everything already created is
     * removed before the exception is thrown.
     */
    void start(LabSpec spec, LabProgressListener progress) throws LabStartException, EngineUnavailableException;

    /** Stops and removes every container of the lab. Idempotent: an unknown or already removed lab is done. */
    void stop(String labId) throws EngineUnavailableException;

    /** The state of each node of the lab, as the engine sees it now. */
    List<NodeStatus> status(String labId) throws EngineUnavailableException;

    /** Runs a command in a node and captures its output, exit code and whether it timed out. */
    ExecResult exec(String labId, String node, List<String> command, Duration timeout)
            throws EngineUnavailableException, NodeNotFoundException;

    /**
     * Starts a long-running process in a node and streams its output to {@code listener} until it exits or the
     * returned stream is closed. With {@code tty}, the process gets a pseudo-terminal (for shells).
     */
    ProcessStream stream(String labId, String node, List<String> command, boolean tty, StreamListener listener)
            throws EngineUnavailableException, NodeNotFoundException;

    /** Ids of every lab this app instance has containers for on the engine (running or not). */
    Set<String> labsOnEngine() throws EngineUnavailableException;

    /**
     * Removes the labs of any tclab instance on the engine that are past their expiry (their maximum lifetime and a
     * grace period): no live app keeps a lab that long, so they are orphans of an app that died, e.g. a killed
     * self-test. Returns their ids.
     */
    Set<String> removeExpiredLabs(Instant now) throws EngineUnavailableException;

    /** Which qdiscs, classifiers, actions and link types the engine host's kernel supports. */
    KernelCapabilities probeKernel() throws EngineUnavailableException;
}
