package dev.tclab.stats;

import java.util.List;
import java.util.Map;

/**
 * One round of the sampler's output, split by its marker lines but not parsed yet.
 *
 * @param nanos     the node's clock when the round began, in ns since the epoch
 * @param linksJson {@code ip -s -j link show}: the counters of every interface of the node
 * @param devices   each sampled interface's raw tc output, in the node's order
 */
record RawSample(long nanos, String linksJson, List<RawDevice> devices) {

    /**
     * The raw output of the tc commands for one interface.
     *
     * @param filterText       the filters of the root qdisc
     * @param filtersByParent  the filters of each class and inner qdisc, by its id ({@code 1:10}, {@code 10:})
     */
    record RawDevice(String dev, String qdiscJson, String classText, String filterText,
                     Map<String, String> filtersByParent, String ingressFilterText) {
    }
}
