package dev.tclab.stats;

import dev.tclab.tc.CakeTin;
import dev.tclab.tc.ClassParser;
import dev.tclab.tc.FilterParser;
import dev.tclab.tc.Qdisc;
import dev.tclab.tc.QdiscParser;
import dev.tclab.tc.TcClass;
import dev.tclab.tc.TcFilter;
import dev.tclab.tc.TcParseException;
import java.util.ArrayList;
import java.util.List;

/** Parses a round of raw sampler output into a {@link StatsFrames.NodeSample} with rates. One per sampler. */
final class SampleParser {

    private final String node;
    private final RateTracker rates = new RateTracker();

    SampleParser(String node) {
        this.node = node;
    }

    StatsFrames.NodeSample parse(RawSample raw) {
        List<StatsFrames.DeviceStats> devices = new ArrayList<>();
        for (RawSample.RawDevice device : raw.devices()) {
            devices.add(device(raw.nanos(), device));
        }
        rates.endRound();
        return new StatsFrames.NodeSample(node, raw.nanos() / 1_000_000, devices);
    }

    private StatsFrames.DeviceStats device(long nanos, RawSample.RawDevice raw) {
        List<StatsFrames.Unparsed> unparsed = new ArrayList<>();
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
        filters(raw.filterText(), "egress", filters, unparsed);
        filters(raw.ingressFilterText(), "ingress", filters, unparsed);
        return new StatsFrames.DeviceStats(raw.dev(), qdiscs, classes, filters, unparsed);
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

    private static void filters(String text, String hook, List<StatsFrames.FilterView> into,
                                List<StatsFrames.Unparsed> unparsed) {
        try {
            for (TcFilter filter : FilterParser.parse(text)) {
                if (filter.isRule()) {
                    into.add(new StatsFrames.FilterView(hook, filter.kind(), filter.parent(), filter.protocol(),
                            filter.pref(), filter.handle(), filter.flowid(), filter.matches(), filter.redirectDev()));
                }
            }
        } catch (TcParseException e) {
            unparsed.add(new StatsFrames.Unparsed(hook + " filter", e.getMessage(), text));
        }
    }
}
