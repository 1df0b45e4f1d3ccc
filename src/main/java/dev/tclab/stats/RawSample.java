package dev.tclab.stats;

import java.util.List;

/**
 * One round of the sampler's output, split by its marker lines but not parsed yet.
 *
 * @param nanos   the node's clock when the round began, in ns since the epoch
 * @param devices each interface's raw tc output, in the node's order
 */
record RawSample(long nanos, List<RawDevice> devices) {

    /** The raw output of the four tc commands for one interface. */
    record RawDevice(String dev, String qdiscJson, String classText, String filterText, String ingressFilterText) {
    }
}
