package dev.tclab.runtime.agent;

/**
 * The sizes of a UML lab node's /tmp, /root and /run, in MiB. They are tmpfs in the lab's kernel, so what learners
 * write there is the kernel's memory ({@code mem=}), which the agent, init and every process need too: with the Docker
 * runtime's caps (64 + 16 + 8 MiB a node) four nodes could claim 352 MiB of a 192 MiB kernel, and filling them would
 * leave the kernel's out-of-memory killer, not a "No space left on device", to answer. So the nodes of a lab share half
 * of its kernel's memory, each node's three caps scaled down alike to its share (never above the configured ones, and
 * at least 1 MiB each).
 */
public record NodeDiskCaps(int tmpMib, int homeMib, int runMib) {

    /** The caps for each of {@code nodes} nodes in a kernel of {@code kernelMib}, within the configured caps. */
    public static NodeDiskCaps fit(int tmpMib, int homeMib, int runMib, int kernelMib, int nodes) {
        long share = kernelMib / 2L / Math.max(1, nodes);
        long configured = (long) tmpMib + homeMib + runMib;
        if (configured <= share) {
            return new NodeDiskCaps(tmpMib, homeMib, runMib);
        }
        return new NodeDiskCaps(
                scaled(tmpMib, share, configured),
                scaled(homeMib, share, configured),
                scaled(runMib, share, configured));
    }

    private static int scaled(int mib, long share, long configured) {
        return (int) Math.max(1, mib * share / configured);
    }

    public int totalMib() {
        return tmpMib + homeMib + runMib;
    }
}
