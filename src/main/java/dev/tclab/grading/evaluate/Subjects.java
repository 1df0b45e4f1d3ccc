package dev.tclab.grading.evaluate;

import dev.tclab.grading.spec.CheckSpec;
import dev.tclab.grading.spec.ClassesMeasurement;
import dev.tclab.grading.spec.CommandMeasurement;
import dev.tclab.grading.spec.FiltersMeasurement;
import dev.tclab.grading.spec.InterfacesMeasurement;
import dev.tclab.grading.spec.Iperf3Measurement;
import dev.tclab.grading.spec.Measurement;
import dev.tclab.grading.spec.PingMeasurement;
import dev.tclab.grading.spec.QdiscMeasurement;
import dev.tclab.grading.spec.ValuePath;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a value path measures, in the lesson's terms rather than as a path: {@code up.mbps} of an iperf3 client on
 * the client is "the client's upload", {@code q.root.kind} "the kind of the root qdisc on the client's eth1",
 * {@code c.by_id[1:10].delta.bytes} "bytes through class 1:10 on the client's eth1 over the load". Learners read these
 * in the feedback; the paths stay under Details.
 */
public final class Subjects {

    /** Counters whose plain numbers say what they count. */
    private static final Map<String, String> COUNTS = Map.ofEntries(
            Map.entry("packets", "packets"),
            Map.entry("drops", "drops"),
            Map.entry("overlimits", "overlimits"),
            Map.entry("requeues", "requeues"),
            Map.entry("lended", "lends"),
            Map.entry("borrowed", "borrows"),
            Map.entry("giants", "giants"),
            Map.entry("qlen", "packets"),
            Map.entry("retransmits", "retransmissions"),
            Map.entry("transmitted", "pings"),
            Map.entry("received", "replies"),
            Map.entry("count", "entries"),
            Map.entry("rx_packets", "packets"),
            Map.entry("tx_packets", "packets"),
            Map.entry("rx_errors", "errors"),
            Map.entry("tx_errors", "errors"),
            Map.entry("rx_dropped", "drops"),
            Map.entry("tx_dropped", "drops"),
            Map.entry("sent_packets", "packets"),
            Map.entry("ecn_mark", "marks"),
            Map.entry("ack_drops", "drops"),
            Map.entry("tokens", "tokens"),
            Map.entry("ctokens", "tokens"));

    private static final Set<String> GOODPUT = Set.of("mbps", "bits_per_second");
    private static final Map<String, String> PING = Map.of(
            "avg_ms",
            "average round trip",
            "min_ms",
            "shortest round trip",
            "max_ms",
            "longest round trip",
            "mdev_ms",
            "round-trip spread",
            "loss_pct",
            "loss",
            "transmitted",
            "pings sent",
            "received",
            "replies");

    /** No measurement known: subjects are the paths themselves (results evaluated outside a check). */
    static final Subjects NONE = new Subjects(List.of(), Map.of());

    private final Map<String, Measurement> measurements = new HashMap<>();
    private final Map<String, Integer> stepOfBaseline;

    Subjects(List<Measurement> measurements, Map<String, Integer> stepOfBaseline) {
        measurements.forEach(m -> this.measurements.put(m.name(), m));
        this.stepOfBaseline = Map.copyOf(stepOfBaseline);
    }

    /** The subjects of {@code spec}'s measurements; its baselines are said as "recorded earlier". */
    public static Subjects of(CheckSpec spec) {
        return of(spec, Map.of());
    }

    /**
     * As {@link #of(CheckSpec)}, saying when each baseline was read: by the check of the step {@code stepOfBaseline}
     * gives its name (numbered as the lesson page numbers steps).
     */
    public static Subjects of(CheckSpec spec, Map<String, Integer> stepOfBaseline) {
        return new Subjects(spec.measurements(), stepOfBaseline);
    }

    /**
     * When the value at {@code path} was read, for a baseline whose step is known ("recorded by step 2's check");
     * empty otherwise (the check's own measurements are read in its run).
     */
    String when(ValuePath path) {
        Integer step = path.root().equals("baseline") ? stepOfBaseline.get(path.field()) : null;
        return step == null ? "" : "recorded by step " + step + "'s check";
    }

    /** What a plain number at {@code path} counts ("borrows", "packets"), or empty when it counts nothing named. */
    static String counts(ValuePath path) {
        return COUNTS.getOrDefault(path.segments().get(path.segments().size() - 1), "");
    }

    /** The path in the lesson's terms. */
    public String of(ValuePath path) {
        if (path.root().equals("baseline")) {
            Integer step = stepOfBaseline.get(path.field());
            return step == null
                    ? "the figure recorded earlier as " + path.field()
                    : "the figure step " + step + "'s check recorded as " + path.field();
        }
        Measurement m = measurements.get(path.root());
        if (m == null) {
            return path.text();
        }
        List<String> rest = path.segments().subList(1, path.segments().size());
        String node = "the " + m.node() + "'s ";
        if (m instanceof Iperf3Measurement iperf) {
            return iperf(iperf, node, rest);
        }
        if (m instanceof PingMeasurement ping) {
            String field = rest.isEmpty()
                    ? ""
                    : PING.getOrDefault(rest.get(0), rest.get(0).replace('_', ' '));
            return field + " of " + node + "ping to " + ping.target() + duringLoad(ping);
        }
        if (m instanceof QdiscMeasurement q) {
            return tree(rest, "qdisc", " on " + node + (q.dev() == null ? "interfaces" : q.dev()));
        }
        if (m instanceof ClassesMeasurement c) {
            return tree(rest, "class", " on " + node + c.dev());
        }
        if (m instanceof FiltersMeasurement f) {
            return tree(rest, "filter", " on " + node + f.dev());
        }
        if (m instanceof InterfacesMeasurement i) {
            return tree(rest, "interface", " on the " + m.node());
        }
        return command(((CommandMeasurement) m).command(), m.node(), rest);
    }

    /**
     * " during the client's upload" for a measurement taken while a load runs, so that a ping under load and an idle
     * one read apart; empty for one taken on its own.
     */
    private String duringLoad(Measurement m) {
        Measurement load = m.during() == null ? null : measurements.get(m.during());
        if (load instanceof Iperf3Measurement iperf) {
            return " during " + iperf(iperf, "the " + iperf.node() + "'s ", List.of());
        }
        return load == null ? "" : " during " + load.name();
    }

    /** {@code exit_code} → "the exit code of `cmd` on the client", {@code match.quantum} → "the quantum printed by ...". */
    private static String command(String command, String node, List<String> rest) {
        String of = "`" + command + "` on the " + node;
        if (rest.isEmpty()) {
            return "what " + of + " printed";
        }
        String last = rest.get(rest.size() - 1);
        return switch (last) {
            case "exit_code" -> "the exit code of " + of;
            case "ok" -> "whether " + of + " succeeded";
            case "stdout", "stderr" -> "the output of " + of;
            case "matched" -> "whether " + of + " printed what the step asks for";
            default -> "the " + (last.matches("\\d+") ? "entry " + last : last.replace('_', ' ')) + " printed by " + of;
        };
    }

    private static String iperf(Iperf3Measurement m, String node, List<String> rest) {
        List<String> fields = rest;
        String flow = "";
        boolean reverse = m.flows().get(0).reverse();
        if (rest.size() >= 2 && rest.get(0).equals(Iperf3Measurement.FLOWS)) {
            String name = rest.get(1);
            Optional<Iperf3Measurement.Flow> named =
                    m.flows().stream().filter(f -> f.name().equals(name)).findFirst();
            flow = " (flow " + name + ")";
            reverse = named.map(Iperf3Measurement.Flow::reverse).orElse(reverse);
            // A flow may run on a node of its own: its subject names that node, not the measurement's.
            node = named.map(f -> "the " + f.node() + "'s ").orElse(node);
            fields = rest.subList(2, rest.size());
        }
        String load = node + (reverse ? "download" : "upload") + flow;
        if (fields.isEmpty() || GOODPUT.contains(fields.get(0))) {
            return load;
        }
        return fields.get(0).replace('_', ' ') + " of " + load;
    }

    /** {@code root.kind} → "the kind of the root qdisc", {@code by_id[1:10].delta.bytes} → "bytes through class 1:10 over the load". */
    private static String tree(List<String> rest, String thing, String where) {
        String which = thing + "s";
        int i = 0;
        if (i < rest.size()) {
            switch (rest.get(i)) {
                case "root" -> which = "the root " + thing;
                case "ingress" -> which = "the ingress " + thing;
                case "by_handle", "by_id", "by_dev" -> {
                    which = i + 1 < rest.size() ? thing + " " + rest.get(++i) : which;
                }
                case "by_parent" -> which = i + 1 < rest.size() ? "the " + thing + " under " + rest.get(++i) : which;
                case "all", "rules" ->
                    which = i + 1 < rest.size()
                            ? thing + " " + (Integer.parseInt(rest.get(++i)) + 1) + " in tc's list"
                            : which;
                default -> i--;
            }
            i++;
        }
        List<String> field = rest.subList(Math.min(i, rest.size()), rest.size());
        String over = "";
        if (!field.isEmpty() && (field.get(0).equals("delta") || field.get(0).equals("per_second"))) {
            over = field.get(0).equals("delta") ? " over the load" : " per second over the load";
            field = field.subList(1, field.size());
        }
        if (field.isEmpty()) {
            return which + where + over;
        }
        String last = field.get(field.size() - 1);
        if (over.startsWith(" per second") && last.equals("bits")) {
            return "the rate of " + which + where + " over the load";
        }
        String words = field.get(0).equals("options")
                ? "the " + last + " option"
                : "the " + COUNTS.getOrDefault(last, last.replace('_', ' '));
        return words + " of " + which + where + over;
    }
}
