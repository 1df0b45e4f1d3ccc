package dev.tclab.runtime.agent;

import dev.tclab.config.TclabConfig;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.LabProgressListener;
import dev.tclab.runtime.LabProgressListener.Stage;
import dev.tclab.runtime.LabStartException;
import dev.tclab.runtime.ParallelCalls;
import dev.tclab.runtime.topology.Topology;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Builds a lab inside a UML kernel whose agent answers, whichever runtime booted the kernel (a Docker container, a
 * pod): one request makes every node, link and sysctl, and one more runs every node's setup. Each request is lab.pl,
 * perl the agent runs in a fork of itself (its {@code E} request), which starts no program for it.
 */
public final class UmlLab {

    private static final Logger LOG = Logger.getLogger(UmlLab.class);

    private final TclabConfig.Lab limits;

    public UmlLab(TclabConfig.Lab limits) {
        this.limits = limits;
    }

    /** Each node's /tmp, /root and /run sizes in a lab of {@code nodes} nodes: see {@link NodeDiskCaps}. */
    NodeDiskCaps diskCaps(int nodes) {
        return NodeDiskCaps.fit(limits.tmpMib(), limits.homeMib(), limits.runMib(), limits.umlMemoryMib(), nodes);
    }

    /**
     * Makes the topology in the kernel of {@code agent}, by {@code deadline} ({@link System#nanoTime}); {@code begin}
     * is when the lab's start began, for the log.
     */
    public void build(
            String labId,
            Topology topology,
            SidecarAgent agent,
            LabProgressListener progress,
            long begin,
            long deadline)
            throws LabStartException {
        long booted = System.nanoTime();
        progress.onStage(Stage.WIRING, topology.links().size() + " links");
        run(
                agent,
                "starting the nodes",
                UmlScripts.wire(topology, diskCaps(topology.nodes().size()), limits.pids()),
                deadline);
        long wired = System.nanoTime();
        progress.onStage(Stage.CONFIGURING, "interfaces, addresses and setup commands");
        List<String> setup = UmlScripts.setup(topology);
        if (!setup.isEmpty()) {
            run(agent, "setting up the nodes", setup, deadline);
        }
        long ready = System.nanoTime();
        LOG.infof(
                "UML lab %s (%d nodes) ready in %d ms: its kernel's agent answering after %d ms, the nodes and"
                        + " links made in %d ms more, setup commands %d ms",
                labId,
                topology.nodes().size(),
                (ready - begin) / 1_000_000,
                (booted - begin) / 1_000_000,
                (wired - booted) / 1_000_000,
                (ready - wired) / 1_000_000);
        progress.onStage(Stage.READY, "");
    }

    /** Runs lab.pl with {@code args} in the agent; its failure is thrown with what it said. */
    private void run(SidecarAgent agent, String what, List<String> args, long deadline) throws LabStartException {
        ExecResult result;
        try {
            result = agent.runPerl(UmlScripts.labLoader(), args, ParallelCalls.remaining(deadline));
        } catch (SidecarAgent.Gone e) {
            throw new LabStartException(what + " failed: the lab's kernel went away: " + e.getMessage());
        }
        if (result.timedOut()) {
            throw new LabStartException("the lab did not become ready within "
                    + limits.startTimeout().toSeconds() + " s (" + what + ")");
        }
        if (!result.ok()) {
            throw new LabStartException(what + " failed: " + (result.stderr() + result.stdout()).trim());
        }
    }
}
