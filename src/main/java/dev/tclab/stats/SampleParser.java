package dev.tclab.stats;

import dev.tclab.grading.parse.IpInterface;
import dev.tclab.grading.parse.IpParser;
import dev.tclab.grading.parse.OutputParseException;
import dev.tclab.tc.CakeTin;
import dev.tclab.tc.ClassParser;
import dev.tclab.tc.FilterParser;
import dev.tclab.tc.Qdisc;
import dev.tclab.tc.QdiscParser;
import dev.tclab.tc.TcClass;
import dev.tclab.tc.TcFilter;
import dev.tclab.tc.TcParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Parses a round of raw sampler output into a {@link StatsFrames.NodeSample} with rates. One per sampler. */
final class SampleParser {

    private final String node;
    private final RateTracker rates = new RateTracker();

    SampleParser(String node) {
        this.node = node;
    }

    StatsFrames.NodeSample parse(RawSample raw) {
        Map<String, IpInterface.Counters> counters = new HashMap<>();
        StatsFrames.Unparsed linksUnparsed = readCounters(raw.linksJson(), counters);
        List<StatsFrames.DeviceStats> devices = new ArrayList<>();
        for (RawSample.RawDevice device : raw.devices()) {
            devices.add(device(raw.nanos(), device, counters.get(device.dev()), linksUnparsed));
        }
        rates.endRound();
        return new StatsFrames.NodeSample(node, raw.nanos() / 1_000_000, devices);
    }

    /** Fills {@code into} with each interface's counters; what could not be parsed, or null. */
    private static StatsFrames.Unparsed readCounters(String linksJson, Map<String, IpInterface.Counters> into) {
        try {
            for (IpInterface link : IpParser.parse(linksJson)) {
                if (link.counters() != null) {
                    into.put(link.name(), link.counters());
                }
            }
            return null;
        } catch (OutputParseException e) {
            return new StatsFrames.Unparsed("link", e.getMessage(), linksJson);
        }
    }

    private StatsFrames.DeviceStats device(long nanos, RawSample.RawDevice raw, IpInterface.Counters counters,
                                           StatsFrames.Unparsed linksUnparsed) {
        List<StatsFrames.Unparsed> unparsed = new ArrayList<>();
        if (linksUnparsed != null) {
            unparsed.add(linksUnparsed);
        }
        StatsFrames.LinkView link = counters == null ? null : link(nanos, raw.dev(), counters);
        List<StatsFrames.QdiscView> qdiscs = new ArrayList<>();
        try {
            for (Qdisc qdisc : QdiscParser.parseJson(raw.qdiscJson(), raw.dev())) {
                qdiscs.add(qdisc(nanos, raw.dev(), qdisc));
            }
        } catch (TcParseException e) {
            unparsed.add(new StatsFrames.Unparsed("qdisc", e.getMessage(), raw.qdiscJson()));
        }
        List<StatsFrames.ClassView> classes = new ArrayList<>();
        try {
            for (TcClass tcClass : ClassParser.parse(raw.classText())) {
                String key = raw.dev() + " class " + tcClass.classId();
                classes.add(new StatsFrames.ClassView(tcClass.kind(), tcClass.classId(), tcClass.parent(),
                        tcClass.leaf(), tcClass.rateBitsPerSecond(), tcClass.ceilBitsPerSecond(), tcClass.stats(),
                        rates.rates(key, nanos, tcClass.stats())));
            }
        } catch (TcParseException e) {
            unparsed.add(new StatsFrames.Unparsed("class", e.getMessage(), raw.classText()));
        }
        List<StatsFrames.FilterView> filters = new ArrayList<>();
        filters(raw.filterText(), "egress", null, filters, unparsed);
        raw.filtersByParent().forEach((parent, text) -> filters(text, "egress", parent, filters, unparsed));
        filters(raw.ingressFilterText(), "ingress", null, filters, unparsed);
        return new StatsFrames.DeviceStats(raw.dev(), link, qdiscs, classes, filters, unparsed);
    }

    private StatsFrames.LinkView link(long nanos, String dev, IpInterface.Counters c) {
        double[] perSecond = rates.perSecond(dev + " link", nanos, c.rxBytes() * 8, c.txBytes() * 8, c.rxPackets(),
                c.txPackets(), c.txDropped());
        return new StatsFrames.LinkView(c, perSecond == null ? null : new StatsFrames.LinkRates(perSecond[0],
                perSecond[1], perSecond[2], perSecond[3], perSecond[4]));
    }

    private StatsFrames.QdiscView qdisc(long nanos, String dev, Qdisc qdisc) {
        String key = dev + " qdisc " + qdisc.kind() + " " + qdisc.handle() + " " + qdisc.parent();
        List<StatsFrames.TinView> tins = new ArrayList<>();
        for (int i = 0; i < qdisc.tins().size(); i++) {
            CakeTin tin = qdisc.tins().get(i);
            double[] perSecond = rates.perSecond(key + " tin " + i, nanos, tin.sentBytes() * 8, tin.drops());
            tins.add(new StatsFrames.TinView(i, tin.thresholdRateBytesPerSecond(), tin.sentBytes(), tin.drops(),
                    tin.backlogBytes(), tin.avgDelayUs(), tin.peakDelayUs(),
                    perSecond == null ? null : perSecond[0], perSecond == null ? null : perSecond[1]));
        }
        return new StatsFrames.QdiscView(qdisc.kind(), qdisc.handle(), qdisc.parent(), qdisc.options(),
                qdisc.stats(), rates.rates(key, nanos, qdisc.stats()), tins);
    }

    /**
     * Adds the rules in {@code text}, the output of {@code tc filter show} for {@code parent} (null: the root qdisc
     * or the ingress hook, whose output names the parent itself). The u32 filters of one qdisc and its classes share
     * their hash tables, so a rule can show up under more than one parent of the same qdisc; it is listed once,
     * under the first.
     */
    private static void filters(String text, String hook, String parent, List<StatsFrames.FilterView> into,
                                List<StatsFrames.Unparsed> unparsed) {
        try {
            for (TcFilter filter : FilterParser.parse(text)) {
                String at = filter.parent() != null ? filter.parent() : parent;
                if (filter.isRule() && into.stream().noneMatch(f -> sameRule(f, hook, at, filter))) {
                    into.add(new StatsFrames.FilterView(hook, filter.kind(), at, filter.protocol(), filter.pref(),
                            filter.handle(), filter.flowid(), filter.matches(), filter.redirectDev()));
                }
            }
        } catch (TcParseException e) {
            unparsed.add(new StatsFrames.Unparsed(hook + " filter" + (parent == null ? "" : " at " + parent),
                    e.getMessage(), text));
        }
    }

    private static boolean sameRule(StatsFrames.FilterView seen, String hook, String at, TcFilter filter) {
        return seen.hook().equals(hook) && Objects.equals(qdiscOf(seen.parent()), qdiscOf(at))
                && seen.kind().equals(filter.kind()) && seen.pref() == filter.pref()
                && Objects.equals(seen.protocol(), filter.protocol()) && Objects.equals(seen.handle(), filter.handle());
    }

    /** The qdisc part of a parent id: {@code 1:} for {@code 1:10}. */
    private static String qdiscOf(String parent) {
        return parent == null ? null : parent.substring(0, parent.indexOf(':') + 1);
    }
}
