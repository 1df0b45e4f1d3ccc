package dev.tclab.runtime;

import java.util.List;
import java.util.Map;

/**
 * The CPU time the host and each of this instance's lab containers have used so far, read at one moment: counters
 * that only grow, so two readings give the CPU in use between them ({@link LabEngine#cpuTimes}).
 *
 * @param readNanos     when it was read ({@link System#nanoTime})
 * @param hostCores     the host's CPUs
 * @param hostBusyNanos CPU time the host spent busy (not idle, not waiting for I/O), over all its CPUs
 * @param platformNanos CPU time of each of the platform's own processes outside the labs, by pid: this app and the
 *                      engine's daemons
 * @param containers    this instance's running lab containers
 */
public record CpuTimes(
        long readNanos, int hostCores, long hostBusyNanos, Map<Long, Long> platformNanos, List<Container> containers) {

    /**
     * One lab container's CPU time.
     *
     * @param labId      its lab
     * @param node       the node whose processes it runs, or null for a container that holds every node of its lab
     *                   (a lab with a kernel of its own)
     * @param learners   whether the learner's processes run in it (a node, or a kernel of its own), not only the
     *                   platform's (a measurement sidecar)
     * @param limitCores the CPU it may use at most
     * @param usedNanos  CPU time it used since it started
     * @param measuring  whether a check of its lab measures now ({@link LabRuntime#raiseCpuPriority})
     */
    public record Container(
            String labId, String node, boolean learners, double limitCores, long usedNanos, boolean measuring) {

        /** The same container, marked as measuring or not. */
        public Container measuring(boolean now) {
            return new Container(labId, node, learners, limitCores, usedNanos, now);
        }
    }
}
