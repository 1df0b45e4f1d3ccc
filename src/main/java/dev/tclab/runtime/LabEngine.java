package dev.tclab.runtime;

import dev.tclab.runtime.topology.Topology;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/**
 * The calls on the engine that runs labs as a whole, not on one lab: whether it answers, its images, the labs it
 * holds, and its kernel. Each runtime's adapter implements it beside {@link LabRuntime} ({@link RuntimeAdapter}).
 * Every method blocks: call it from a worker thread, never from the Vert.x event loop.
 */
public interface LabEngine {

    /** Whether the engine answers, and its version; never throws. */
    EngineStatus engine();

    /** Whether the image exists on the engine. */
    boolean imagePresent(String image) throws EngineUnavailableException;

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

    /**
     * What the kernel of the lesson's labs supports when they get a kernel of their own (User-Mode Linux), probed once
     * on first use; empty when they run on the host's kernel ({@link #probeKernel}). A lesson's guarded blocks are
     * shown for the kernel its lab runs on.
     */
    default Optional<KernelCapabilities> ownKernel(Topology topology, String lesson) throws EngineUnavailableException {
        return Optional.empty();
    }

    /**
     * The kernel of labs that get one of their own, with how it runs their processes, once it has been probed
     * ({@link #ownKernel}); empty before, and never boots one to find out.
     */
    default Optional<KernelCapabilities> ownKernelIfProbed() {
        return Optional.empty();
    }

    /**
     * Whether the lesson's labs get a kernel of their own, decided without booting one to probe it (as
     * {@link #ownKernel} may): what the catalog says of every lesson at once.
     */
    default boolean runsOwnKernel(Topology topology, String lesson) throws EngineUnavailableException {
        return false;
    }

    /**
     * The CPU time the host and this instance's running lab containers have used so far; empty when the app cannot
     * read them (the engine runs on another host, or its control groups are not where the engine puts them).
     */
    default Optional<CpuTimes> cpuTimes() throws EngineUnavailableException {
        return Optional.empty();
    }
}
