package dev.tclab.grading.run;

import dev.tclab.grading.spec.Assertion;
import dev.tclab.grading.spec.CheckSpec;
import dev.tclab.grading.spec.ClassesMeasurement;
import dev.tclab.grading.spec.CommandMeasurement;
import dev.tclab.grading.spec.FiltersMeasurement;
import dev.tclab.grading.spec.Iperf3Measurement;
import dev.tclab.grading.spec.Measurement;
import dev.tclab.grading.spec.PingMeasurement;
import dev.tclab.grading.spec.QdiscMeasurement;
import dev.tclab.grading.spec.ValuePath;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Which expectations of a check can be judged before its throughput measurements run, so an obvious failure (no
 * qdisc at all) answers in well under a second instead of after seconds of iperf3.
 * <p>
 * A gate is a top-level expectation whose every value is configuration that a load cannot change, read by a cheap
 * measurement (not a load, not {@code during} one): a qdisc's kind, handle, parent and options, a class's rates,
 * a filter's match and action, an interface from {@code parse: ip}. Counters ({@code bytes}, {@code drops},
 * {@code backlog}, ...) are not gates: the check reads them after the load on purpose. Neither is any other
 * {@code command} output, which may read counters too. When a gate fails on the first read, the loads cannot make
 * the check pass, so they are skipped.
 */
final class CheapFirst {

    private static final Set<String> QDISC_CONFIG = Set.of("kind", "handle", "parent", "dev", "count");
    private static final Set<String> CLASS_CONFIG =
            Set.of("kind", "classid", "parent", "leaf", "prio", "quantum", "rate", "ceil", "burst", "cburst", "count");
    private static final Set<String> FILTER_CONFIG = Set.of(
            "kind",
            "parent",
            "protocol",
            "pref",
            "handle",
            "flowid",
            "matches",
            "redirect_dev",
            "verb",
            "direction",
            "dev",
            "control",
            "count");
    private static final Set<String> INTERFACE_CONFIG =
            Set.of("mtu", "qdisc", "operstate", "up", "mac", "addresses", "ipv4");

    private CheapFirst() {}

    /**
     * The measurements read first: neither loads nor run during one, nor pings, in the check's order. A ping crosses
     * the link like a load: its replies are proven by the far end's counters read before and after it ({@link
     * LinkProof#echoesOf}), which a read in one round alongside others cannot order.
     */
    static List<Measurement> cheap(CheckSpec spec) {
        return spec.measurements().stream().filter(m -> !skipped(m)).toList();
    }

    /** The check's loads, pings and what runs during loads: what a failing gate skips. */
    static List<Measurement> skippable(CheckSpec spec) {
        return spec.measurements().stream().filter(CheapFirst::skipped).toList();
    }

    private static boolean skipped(Measurement m) {
        return m.load() || m instanceof PingMeasurement || m.during() != null || m.over() != null;
    }

    /** What skipped measurements measure, for the learner: {@code throughput and latency}. */
    static String inWords(List<Measurement> skipped) {
        List<String> words = skipped.stream()
                .map(m -> m instanceof Iperf3Measurement
                        ? "throughput"
                        : m instanceof PingMeasurement ? "latency" : m.name())
                .distinct()
                .toList();
        return words.size() == 1
                ? words.get(0)
                : String.join(", ", words.subList(0, words.size() - 1)) + " and " + words.get(words.size() - 1);
    }

    /** Cheap measurements listed before the first load: their first read is the one the check would take anyway. */
    static Set<String> readBeforeLoads(CheckSpec spec) {
        Set<String> names = new HashSet<>();
        for (Measurement m : spec.measurements()) {
            if (m.load()) {
                break;
            }
            if (m.during() == null && m.over() == null) {
                names.add(m.name());
            }
        }
        return names;
    }

    /** The expectations judged on the first read; empty when the check has no load to skip or nothing to judge. */
    static List<Assertion> gates(CheckSpec spec) {
        if (spec.measurements().stream().noneMatch(Measurement::load)) {
            return List.of();
        }
        Map<String, Measurement> cheap = new HashMap<>();
        cheap(spec).forEach(m -> cheap.put(m.name(), m));
        return spec.expect().stream()
                .filter(a -> paths(a).allMatch(p -> configuration(p, cheap)))
                .toList();
    }

    private static Stream<ValuePath> paths(Assertion assertion) {
        if (assertion instanceof Assertion.Check check) {
            return check.ratioTo() == null ? Stream.of(check.path()) : Stream.of(check.path(), check.ratioTo());
        }
        List<Assertion> children =
                assertion instanceof Assertion.AllOf all ? all.children() : ((Assertion.AnyOf) assertion).children();
        return children.stream().flatMap(CheapFirst::paths);
    }

    /** Whether {@code path} reads configuration from a cheap measurement, or a recorded baseline (fixed too). */
    static boolean configuration(ValuePath path, Map<String, Measurement> cheap) {
        if (path.root().equals("baseline")) {
            return true;
        }
        Measurement m = cheap.get(path.root());
        List<String> segments = path.segments();
        if (m == null || segments.size() < 2) {
            return false;
        }
        String last = segments.get(segments.size() - 1);
        if (m instanceof QdiscMeasurement) {
            return segments.contains("options") || QDISC_CONFIG.contains(last);
        }
        if (m instanceof ClassesMeasurement) {
            return CLASS_CONFIG.contains(last);
        }
        if (m instanceof FiltersMeasurement) {
            return FILTER_CONFIG.contains(last);
        }
        if (m instanceof CommandMeasurement command) {
            return command.parse() == CommandMeasurement.Parse.IP
                    && segments.get(1).equals("interfaces")
                    && INTERFACE_CONFIG.contains(segments.size() > 3 ? segments.get(3) : "");
        }
        return false;
    }
}
