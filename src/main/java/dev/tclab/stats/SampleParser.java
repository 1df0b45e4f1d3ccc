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
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Parses a round of raw sampler output into a {@link StatsFrames.NodeSample} with rates, keeping the interfaces the
 * lab samples, and tells the sampler which interfaces to detail next time. One per sampler.
 */
final class SampleParser {

    private final String node;
    private final Predicate<String> sampled;
    private final RateTracker rates = new RateTracker();
    private volatile List<String> toDetail = List.of();
    private volatile Map<String, Long> rootBacklogs = Map.of();

    /** @param interfaces names or shell-style patterns ({@code ifb*}) of the interfaces to keep; empty keeps all */
    SampleParser(String node, List<String> interfaces) {
        this.node = node;
        this.sampled = interfaces.isEmpty() ? dev -> true : glob(interfaces);
    }

    StatsFrames.NodeSample parse(RawSample raw) {
        List<StatsFrames.Unparsed> problems = new ArrayList<>();
        Map<String, StatsFrames.LinkCounters> counters = new LinkedHashMap<>();
        readCounters(raw.linksText(), counters, problems);
        Map<String, List<Qdisc>> qdiscs = new LinkedHashMap<>();
        readQdiscs(raw.qdiscsJson(), qdiscs, problems);
        rootBacklogs = rootBacklogs(qdiscs);
        Map<String, RawSample.RawDetails> details = new HashMap<>();
        raw.details().forEach(d -> details.put(d.dev(), d));

        Set<String> names = new LinkedHashSet<>(counters.keySet());
        names.addAll(qdiscs.keySet());
        names.removeIf(dev -> dev.equals("lo") || !sampled.test(dev));
        List<StatsFrames.DeviceStats> devices = new ArrayList<>();
        for (String dev : names) {
            devices.add(device(
                    raw.nanos(),
                    dev,
                    counters.get(dev),
                    qdiscs.getOrDefault(dev, List.of()),
                    details.get(dev),
                    problems));
        }
        if (devices.isEmpty() && !problems.isEmpty()) {
            devices.add(new StatsFrames.DeviceStats("?", null, List.of(), List.of(), List.of(), problems));
        }
        rates.endRound();
        toDetail = devices.stream()
                .filter(d -> d.qdiscs().stream().anyMatch(q -> !q.kind().equals("noqueue")))
                .map(StatsFrames.DeviceStats::dev)
                .toList();
        return new StatsFrames.NodeSample(node, raw.nanos() / 1_000_000, devices);
    }

    /**
     * The bytes queued in each interface's root qdisc in the last round, for every interface of the node (sampled or
     * not): a root qdisc counts what its classes and inner qdiscs hold, so these add up to the node's kernel memory
     * held in queues.
     */
    Map<String, Long> rootBacklogs() {
        return rootBacklogs;
    }

    private static Map<String, Long> rootBacklogs(Map<String, List<Qdisc>> qdiscs) {
        return rootBacklogs(qdiscs.values().stream().flatMap(List::stream).toList());
    }

    /** The bytes queued in each interface's root qdisc, from {@code tc -s -j qdisc show}. */
    static Map<String, Long> rootBacklogs(List<Qdisc> qdiscs) {
        Map<String, Long> backlogs = new HashMap<>();
        qdiscs.stream()
                .filter(q -> q.parent().equals("root") && q.dev() != null)
                .forEach(q -> backlogs.merge(q.dev(), q.stats().backlogBytes(), Long::sum));
        return Map.copyOf(backlogs);
    }

    /** The sampled interfaces with a qdisc other than noqueue in the last round: only they have classes or filters. */
    List<String> devicesToDetail() {
        return toDetail;
    }

    /** Lines of "dev rx_bytes rx_packets rx_dropped tx_bytes tx_packets tx_dropped", as the sampler prints them. */
    private static void readCounters(
            String linksText, Map<String, StatsFrames.LinkCounters> into, List<StatsFrames.Unparsed> problems) {
        for (String line : linksText.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.trim().split(" ");
            try {
                if (f.length != 7) {
                    throw new NumberFormatException("expected an interface and six counters");
                }
                into.put(
                        f[0],
                        new StatsFrames.LinkCounters(
                                Long.parseLong(f[1]),
                                Long.parseLong(f[2]),
                                Long.parseLong(f[3]),
                                Long.parseLong(f[4]),
                                Long.parseLong(f[5]),
                                Long.parseLong(f[6])));
            } catch (NumberFormatException e) {
                problems.add(new StatsFrames.Unparsed(
                        "link", "cannot read the counters of /proc/net/dev: " + e.getMessage(), linksText));
                return;
            }
        }
    }

    private static void readQdiscs(
            String qdiscsJson, Map<String, List<Qdisc>> into, List<StatsFrames.Unparsed> problems) {
        try {
            for (Qdisc qdisc : QdiscParser.parseJson(qdiscsJson)) {
                into.computeIfAbsent(String.valueOf(qdisc.dev()), d -> new ArrayList<>())
                        .add(qdisc);
            }
        } catch (TcParseException e) {
            problems.add(new StatsFrames.Unparsed("qdisc", e.getMessage(), qdiscsJson));
        }
    }

    private StatsFrames.DeviceStats device(
            long nanos,
            String dev,
            StatsFrames.LinkCounters counters,
            List<Qdisc> qdiscs,
            RawSample.RawDetails raw,
            List<StatsFrames.Unparsed> nodeProblems) {
        List<StatsFrames.Unparsed> unparsed = new ArrayList<>(nodeProblems);
        StatsFrames.LinkView link = counters == null ? null : link(nanos, dev, counters);
        List<StatsFrames.QdiscView> qdiscViews = new ArrayList<>();
        for (Qdisc qdisc : qdiscs) {
            qdiscViews.add(qdisc(nanos, dev, qdisc));
        }
        List<StatsFrames.ClassView> classes = new ArrayList<>();
        List<StatsFrames.FilterView> filters = new ArrayList<>();
        if (raw != null) {
            classes(nanos, raw, classes, unparsed);
            filters(raw.filterText(), "egress", null, filters, unparsed);
            raw.filtersByParent().forEach((parent, text) -> filters(text, "egress", parent, filters, unparsed));
            filters(raw.ingressFilterText(), "ingress", null, filters, unparsed);
        }
        return new StatsFrames.DeviceStats(dev, link, qdiscViews, classes, filters, unparsed);
    }

    private void classes(
            long nanos,
            RawSample.RawDetails raw,
            List<StatsFrames.ClassView> into,
            List<StatsFrames.Unparsed> unparsed) {
        try {
            for (TcClass tcClass : ClassParser.parse(raw.classText())) {
                String key = raw.dev() + " class " + tcClass.classId();
                into.add(new StatsFrames.ClassView(
                        tcClass.kind(),
                        tcClass.classId(),
                        tcClass.parent(),
                        tcClass.leaf(),
                        tcClass.rateBitsPerSecond(),
                        tcClass.ceilBitsPerSecond(),
                        tcClass.stats(),
                        rates.rates(key, nanos, tcClass.stats())));
            }
        } catch (TcParseException e) {
            unparsed.add(new StatsFrames.Unparsed("class", e.getMessage(), raw.classText()));
        }
    }

    private StatsFrames.LinkView link(long nanos, String dev, StatsFrames.LinkCounters c) {
        double[] perSecond = rates.perSecond(
                dev + " link", nanos, c.rxBytes() * 8, c.txBytes() * 8, c.rxPackets(), c.txPackets(), c.txDropped());
        return new StatsFrames.LinkView(
                c,
                perSecond == null
                        ? null
                        : new StatsFrames.LinkRates(
                                perSecond[0], perSecond[1], perSecond[2], perSecond[3], perSecond[4]));
    }

    /** lab.yml's interface patterns, where {@code *} stands for any characters. */
    private static Predicate<String> glob(List<String> patterns) {
        List<Pattern> compiled = patterns.stream()
                .map(p -> Pattern.compile(
                        Arrays.stream(p.split("\\*", -1)).map(Pattern::quote).collect(Collectors.joining(".*"))))
                .toList();
        return dev -> compiled.stream().anyMatch(p -> p.matcher(dev).matches());
    }

    private StatsFrames.QdiscView qdisc(long nanos, String dev, Qdisc qdisc) {
        String key = dev + " qdisc " + qdisc.kind() + " " + qdisc.handle() + " " + qdisc.parent();
        List<StatsFrames.TinView> tins = new ArrayList<>();
        for (int i = 0; i < qdisc.tins().size(); i++) {
            CakeTin tin = qdisc.tins().get(i);
            double[] perSecond = rates.perSecond(key + " tin " + i, nanos, tin.sentBytes() * 8, tin.drops());
            tins.add(new StatsFrames.TinView(
                    i,
                    tin.thresholdRateBytesPerSecond(),
                    tin.sentBytes(),
                    tin.drops(),
                    tin.backlogBytes(),
                    tin.avgDelayUs(),
                    tin.peakDelayUs(),
                    perSecond == null ? null : perSecond[0],
                    perSecond == null ? null : perSecond[1]));
        }
        return new StatsFrames.QdiscView(
                qdisc.kind(),
                qdisc.handle(),
                qdisc.parent(),
                qdisc.options(),
                qdisc.stats(),
                rates.rates(key, nanos, qdisc.stats()),
                tins);
    }

    /**
     * Adds the rules in {@code text}, the output of {@code tc filter show} for {@code parent} (null: the root qdisc
     * or the ingress hook, whose output names the parent itself). The u32 filters of one qdisc and its classes share
     * their hash tables, so a rule can show up under more than one parent of the same qdisc; it is listed once,
     * under the first.
     */
    private static void filters(
            String text,
            String hook,
            String parent,
            List<StatsFrames.FilterView> into,
            List<StatsFrames.Unparsed> unparsed) {
        try {
            for (TcFilter filter : FilterParser.parse(text)) {
                String at = filter.parent() != null ? filter.parent() : parent;
                if (filter.isRule() && into.stream().noneMatch(f -> sameRule(f, hook, at, filter))) {
                    into.add(new StatsFrames.FilterView(
                            hook,
                            filter.kind(),
                            at,
                            filter.protocol(),
                            filter.pref(),
                            filter.handle(),
                            filter.flowid(),
                            filter.matches(),
                            filter.redirectDev()));
                }
            }
        } catch (TcParseException e) {
            unparsed.add(new StatsFrames.Unparsed(
                    hook + " filter" + (parent == null ? "" : " at " + parent), e.getMessage(), text));
        }
    }

    private static boolean sameRule(StatsFrames.FilterView seen, String hook, String at, TcFilter filter) {
        return seen.hook().equals(hook)
                && Objects.equals(qdiscOf(seen.parent()), qdiscOf(at))
                && seen.kind().equals(filter.kind())
                && seen.pref() == filter.pref()
                && Objects.equals(seen.protocol(), filter.protocol())
                && Objects.equals(seen.handle(), filter.handle());
    }

    /** The qdisc part of a parent id: {@code 1:} for {@code 1:10}. */
    private static String qdiscOf(String parent) {
        return parent == null ? null : parent.substring(0, parent.indexOf(':') + 1);
    }
}
