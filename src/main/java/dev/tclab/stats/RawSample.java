package dev.tclab.stats;

import java.util.List;
import java.util.Map;

/**
 * One round of the sampler's output, split by its marker lines but not parsed yet.
 *
 * @param nanos      the node's clock when the round began, in ns since the epoch
 * @param linksText  every interface of the node and its counters, a line each (see {@link SamplerScript})
 * @param qdiscsJson {@code tc -s -j qdisc show}: every qdisc of the node
 * @param details    the classes and filters of the interfaces the round was asked to detail, in that order
 */
record RawSample(long nanos, String linksText, String qdiscsJson, List<RawDetails> details) {

    /**
     * The classes and filters of one interface, as tc prints them.
     *
     * @param filterText      the filters of the root qdisc
     * @param filtersByParent the filters of each class and inner qdisc, by its id ({@code 1:10}, {@code 10:})
     */
    record RawDetails(
            String dev,
            String classText,
            String filterText,
            Map<String, String> filtersByParent,
            String ingressFilterText) {}
}
