package dev.tclab.runtime.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import dev.tclab.runtime.CpuPriority;
import dev.tclab.runtime.LabelKeys;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * The CPU weights (cgroup CPU shares) of labs' containers. Each lab weighs the same at rest, whatever its number of
 * containers: a lab of three nodes splits one lab's weight between them, so under contention every lab gets an equal
 * part of the host and a busy lab no more. While a check measures, its lab weighs {@link #MEASURING_FACTOR} times as
 * much, so the CPU hogs of other learners slow their own labs, not this lab's flows. Each container's own CPU limit
 * still holds: a raised weight only decides who runs when the host's CPUs are all in demand.
 */
public final class CpuWeights {

    /** One lab's weight at rest: Docker's default for a single container. */
    static final int LAB_AT_REST = 1024;
    /** How much more a lab weighs while its check measures. */
    static final int MEASURING_FACTOR = 8;
    /** The smallest weight Docker accepts. */
    private static final int FLOOR = 2;

    private static final Logger LOG = Logger.getLogger(CpuWeights.class);

    private final DockerClient docker;
    private final String instance;
    /** Per lab measured since it started, how many raises are open. */
    private final Map<String, OpenRaises> labs = new ConcurrentHashMap<>();

    /** A lab's open raises; its lock orders the lab's engine calls, so a restore never overtakes a later raise. */
    private static final class OpenRaises {
        private int open;
    }

    public CpuWeights(DockerClient docker, String instance) {
        this.docker = docker;
        this.instance = instance;
    }

    /** The weight of each container of a lab whose weight is split between {@code containers}, at rest. */
    public static int atRest(int containers) {
        return Math.max(FLOOR, LAB_AT_REST / Math.max(1, containers));
    }

    static int measuring(int containers) {
        return atRest(containers) * MEASURING_FACTOR;
    }

    /**
     * Raises the lab's weight until the returned priority is closed (the first raise of a lab changes its containers,
     * the last close puts them back). The engine refusing (a container removed meanwhile) leaves the weight as it
     * was: the check measures all the same.
     */
    public CpuPriority raise(String labId) {
        OpenRaises lab = labs.computeIfAbsent(labId, id -> new OpenRaises());
        synchronized (lab) {
            if (lab.open++ == 0) {
                apply(labId, true);
            }
        }
        AtomicBoolean closed = new AtomicBoolean();
        return () -> {
            if (closed.compareAndSet(false, true)) {
                synchronized (lab) {
                    if (--lab.open == 0) {
                        apply(labId, false);
                    }
                }
            }
        };
    }

    /** Drops what is kept about a lab that stopped. */
    public void forget(String labId) {
        labs.remove(labId);
    }

    private void apply(String labId, boolean measuring) {
        try {
            List<Container> found = docker.listContainersCmd()
                    .withLabelFilter(Labels.labOf(instance, labId))
                    .exec();
            // Sidecars measure their node; the weight is split between what runs the learner's processes.
            long running = found.stream()
                    .filter(c -> !Labels.ROLE_SIDECAR.equals(c.getLabels().get(LabelKeys.ROLE)))
                    .count();
            int containers = (int) Math.max(1, running);
            int shares = measuring ? measuring(containers) : atRest(containers);
            for (Container c : found) {
                docker.updateContainerCmd(c.getId()).withCpuShares(shares).exec();
            }
        } catch (RuntimeException e) {
            LOG.debugf(e, "lab %s: CPU weight not %s", labId, measuring ? "raised" : "restored");
        }
    }
}
