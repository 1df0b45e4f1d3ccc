package dev.tclab.stats;

import dev.tclab.tc.QdiscStats;
import java.util.List;
import java.util.Map;

/**
 * The JSON messages of the statistics socket (see docs/api.md, "WebSockets"). Counters are totals since the qdisc
 * or class was created; rates are per second over the last interval and null on the first sample of a qdisc or
 * class, or when its counters went backwards (it was replaced).
 */
final class StatsFrames {

    private StatsFrames() {}

    /** One round of a node's statistics. {@code time} is the node's clock, in ms since the epoch. */
    record NodeSample(String type, String node, long time, List<DeviceStats> devices) {
        NodeSample(String node, long time, List<DeviceStats> devices) {
            this("sample", node, time, devices);
        }
    }

    /**
     * One interface: its own traffic counters (null when unreadable), its qdisc tree, classes, filters, and any
     * output that could not be parsed (shown raw).
     */
    record DeviceStats(
            String dev,
            LinkView link,
            List<QdiscView> qdiscs,
            List<ClassView> classes,
            List<FilterView> filters,
            List<Unparsed> unparsed) {}

    /**
     * What the interface itself sent and received, whatever the qdiscs: the only figures that move while the
     * interface has no queue of its own ({@code noqueue}).
     */
    record LinkView(LinkCounters counters, LinkRates rates) {}

    /** Totals since the interface was created, as the kernel counts them (layer-2 bytes). */
    record LinkCounters(long rxBytes, long rxPackets, long rxDropped, long txBytes, long txPackets, long txDropped) {}

    record LinkRates(
            double rxBitsPerSecond,
            double txBitsPerSecond,
            double rxPacketsPerSecond,
            double txPacketsPerSecond,
            double txDropsPerSecond) {}

    record QdiscView(
            String kind,
            String handle,
            String parent,
            Map<String, Object> options,
            QdiscStats counters,
            Rates rates,
            List<TinView> tins) {}

    record ClassView(
            String kind,
            String classId,
            String parent,
            String leaf,
            Long rateBitsPerSecond,
            Long ceilBitsPerSecond,
            QdiscStats counters,
            Rates rates) {}

    /** A classifying rule; {@code hook} is egress or ingress, {@code redirectDev} where mirred sends packets. */
    record FilterView(
            String hook,
            String kind,
            String parent,
            String protocol,
            int pref,
            String handle,
            String flowid,
            List<String> matches,
            String redirectDev) {}

    record Rates(double bitsPerSecond, double packetsPerSecond, double dropsPerSecond, double overlimitsPerSecond) {}

    /** A CAKE tin (priority class) with its own throughput and drop rate. */
    record TinView(
            int tin,
            long thresholdBytesPerSecond,
            long sentBytes,
            long drops,
            long backlogBytes,
            long avgDelayUs,
            long peakDelayUs,
            Double bitsPerSecond,
            Double dropsPerSecond) {}

    /** tc output the parsers did not understand: the widget shows it as text instead of breaking. */
    record Unparsed(String what, String error, String raw) {}

    /** Something the viewers should know about a node's sampler, e.g. that it was restarted. */
    record Notice(String type, String node, String message) {
        Notice(String node, String message) {
            this("notice", node, message);
        }
    }

    /**
     * The node (or its lab's own kernel) has used nearly all the CPU it may for over a minute outside a check: {@code message}
     * says so in words, again every few seconds while it lasts; null when it no longer does.
     */
    record CpuNotice(String type, String node, String message) {
        CpuNotice(String node, String message) {
            this("cpu", node, message);
        }
    }

    /**
     * A queue held more of the lab's packets than the server allows (kernel memory), so tclab removed the root qdisc
     * of {@code dev} on {@code node} (see {@code tclab.lab.max-qdisc-backlog-mib}); {@code message} says so in words.
     */
    record BacklogReset(String type, String node, String dev, long backlogBytes, long ceilingBytes, String message) {
        BacklogReset(String node, String dev, long backlogBytes, long ceilingBytes, String message) {
            this("backlog-reset", node, dev, backlogBytes, ceilingBytes, message);
        }
    }

    /**
     * New round trips of a latency probe of the lab.yml ({@code index} is its place there, for a stable colour):
     * pings in the order they left, each with its round trip in ms, or {@code lost} when no reply came back.
     */
    record ProbeSample(String type, String probe, int index, String from, String to, List<ProbePoint> points) {
        ProbeSample(String probe, int index, String from, String to, List<ProbePoint> points) {
            this("probe", probe, index, from, to, points);
        }
    }

    /** One ping: when it left (ms since the epoch) and its round trip in ms (null when lost). */
    record ProbePoint(long time, Double rttMs, boolean lost) {}

    /** A probe's ping stopped (and restarts), e.g. because the node has no route to its address. */
    record ProbeNotice(String type, String probe, int index, String message) {
        ProbeNotice(String probe, int index, String message) {
            this("probe-notice", probe, index, message);
        }
    }

    /** The socket cannot go on, or a message from the page was refused. */
    record Error(String type, String message) {
        Error(String message) {
            this("error", message);
        }
    }
}
