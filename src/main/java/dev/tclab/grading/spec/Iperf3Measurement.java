package dev.tclab.grading.spec;

import dev.tclab.grading.parse.IperfParser;
import dev.tclab.grading.parse.IperfResult;
import dev.tclab.grading.parse.OutputParseException;
import dev.tclab.runtime.ExecResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code iperf3: { server, seconds, ... }}: one or more iperf3 flows loading the link together for {@code seconds},
 * each against a one-off server of the platform's own (see {@code run.IperfServer}). Without {@code flows} it is one
 * flow and its results sit at the top ({@code up.mbps}); with {@code flows: { a: {...}, b: {...} }} each flow's
 * results sit under {@code flows.<name>} and the top holds their sums ({@code mbps}, {@code bits_per_second}).
 *
 * @param flows the flows, in the order written; one unnamed flow ({@code ""}) without {@code flows}
 */
public record Iperf3Measurement(Common common, int seconds, List<Flow> flows) implements Measurement {

    /**
     * Ports the platform's one-off servers pick from at random, above the lessons' 5201 and below Linux's ephemeral
     * range.
     */
    public static final int FIRST_SERVER_PORT = 20000;

    public static final int SERVER_PORTS = 10000;

    /** A flow's congestion control ({@code congestion:}), set on its sender's socket (iperf3 {@code -C}). */
    public enum Congestion {
        /**
         * The default: loss-based, so it fills buffers; the host's default (bbr) does not, so no bloat would show.
         */
        CUBIC,
        /** Classic AIMD (halve on a loss, one segment more per round trip), the TCP that Mathis et al. model. */
        RENO;

        /** The algorithm's name as Linux and iperf3 spell it. */
        public String algorithm() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One iperf3 client.
     *
     * @param node    the node the client runs in (the measurement's node unless the flow names another)
     * @param port    the port of its one-off server, or null for a random free one from 20000-29999
     * @param bitrate UDP only: the rate it sends at, in bit/s, or null for iperf3's default (1 Mbit/s)
     * @param tos     the IP TOS byte its packets carry (a DSCP shifted left by 2), or null
     * @param congestion the sender's congestion control
     */
    public record Flow(
            String name,
            String node,
            String server,
            Integer port,
            int parallel,
            boolean reverse,
            boolean udp,
            Long bitrate,
            Integer tos,
            Congestion congestion) {

        /**
         * The client's command line against {@code port}. Congestion control is always pinned (cubic unless the flow
         * says {@code congestion: reno}): the host's default may be bbr, which does not fill buffers.
         */
        public List<String> argv(int seconds, int port) {
            List<String> argv = new ArrayList<>(List.of(
                    "iperf3",
                    "-c",
                    server,
                    "-J",
                    "-C",
                    congestion.algorithm(),
                    "-t",
                    Integer.toString(seconds),
                    "-p",
                    Integer.toString(port)));
            if (parallel > 1) {
                argv.addAll(List.of("-P", Integer.toString(parallel)));
            }
            if (reverse) {
                argv.add("-R");
            }
            if (udp) {
                argv.add("-u");
                if (bitrate != null) {
                    argv.addAll(List.of("-b", Long.toString(bitrate)));
                }
            }
            if (tos != null) {
                argv.addAll(List.of("-S", Integer.toString(tos)));
            }
            return argv;
        }
    }

    public static final String FLOWS = "flows";

    /**
     * With {@code flows}: Jain's fairness index of the flows' received rates (Jain, Chiu and Hawe, DEC-TR-301, 1984),
     * a top-level field only.
     */
    public static final String JAIN = "jain";

    private static final Pattern AF = Pattern.compile("(?i)af([1-4])([1-3])");
    private static final Pattern CS = Pattern.compile("(?i)cs([0-7])");
    private static final Map<String, Unit> FIELDS = Map.ofEntries(
            Map.entry("mbps", Unit.MBIT_PER_S),
            Map.entry("bits_per_second", Unit.BIT_PER_S),
            Map.entry("sent_bits_per_second", Unit.BIT_PER_S),
            Map.entry("retransmits", Unit.NONE),
            Map.entry("seconds", Unit.S),
            Map.entry("bytes", Unit.BYTES),
            Map.entry("lost_percent", Unit.PERCENT),
            Map.entry("jitter_ms", Unit.MS),
            Map.entry("error", Unit.NONE),
            Map.entry(FLOWS, Unit.NONE),
            Map.entry(JAIN, Unit.NONE));

    /**
     * {@code iperf3:} as written (docs/schema/check.schema.json, $defs/iperf3): the options of its one flow, or the
     * defaults of its named {@code flows} (at most 4, by the schema).
     */
    public record Options(
            String server,
            Integer seconds,
            Integer port,
            Integer parallel,
            Boolean reverse,
            Boolean udp,
            String bitrate,
            String tos,
            String dscp,
            String congestion,
            Map<String, FlowOptions> flows) {

        FlowOptions asFlow() {
            return new FlowOptions(server, null, port, parallel, reverse, udp, bitrate, tos, dscp, congestion);
        }
    }

    /** One named flow's options as written; each one it leaves out falls back to the measurement's. */
    public record FlowOptions(
            String server,
            String node,
            Integer port,
            Integer parallel,
            Boolean reverse,
            Boolean udp,
            String bitrate,
            String tos,
            String dscp,
            String congestion) {}

    static Measurement of(Common common, Options options, OptionReader reader) {
        int seconds = options.seconds() == null ? 5 : options.seconds();
        FlowOptions outer = options.asFlow();
        if (options.flows() == null) {
            Flow flow = flow(reader, reader, "", common.node(), outer, outer);
            return flow == null ? null : new Iperf3Measurement(common, seconds, List.of(flow));
        }
        List<Flow> flows = new ArrayList<>();
        options.flows().forEach((name, own) -> {
            FlowOptions mine =
                    own == null ? new FlowOptions(null, null, null, null, null, null, null, null, null, null) : own;
            Flow flow = flow(reader.under(FLOWS).under(name), reader, name, common.node(), mine, outer);
            if (flow != null) {
                flows.add(flow);
            }
        });
        if (flows.size() < options.flows().size()) {
            return null;
        }
        List<Integer> fixed =
                flows.stream().map(Flow::port).filter(p -> p != null).toList();
        if (fixed.stream().distinct().count() < fixed.size()) {
            // Recorded, and the measurement still made: later measurements may run during it.
            reader.add(FLOWS, "two flows name the same port; each flow has its own server, so give each its own port");
        }
        return new Iperf3Measurement(common, seconds, List.copyOf(flows));
    }

    /**
     * A flow's options, each falling back to the measurement's ({@code outer}), then to iperf3's defaults. A problem
     * is recorded where the value was written: the flow's own mapping ({@code here}) or the measurement's. Null only
     * when it has no server.
     */
    private static Flow flow(
            OptionReader here, OptionReader measurement, String name, String node, FlowOptions own, FlowOptions outer) {
        String server = null;
        if (own.server() == null && outer.server() == null) {
            measurement.add(null, "flow '" + name + "' has no server: give the measurement or the flow 'server'");
        } else {
            server = own.server() != null
                    ? here.address("server", own.server())
                    : measurement.address("server", outer.server());
        }
        String flowNode = own.node() != null ? own.node() : node;
        Integer port = pick(own.port(), outer.port());
        int parallel =
                Optional.ofNullable(pick(own.parallel(), outer.parallel())).orElse(1);
        boolean reverse = Boolean.TRUE.equals(pick(own.reverse(), outer.reverse()));
        boolean udp = Boolean.TRUE.equals(pick(own.udp(), outer.udp()));
        OptionReader bitrateAt = own.bitrate() != null ? here : measurement;
        String bitrateText = pick(own.bitrate(), outer.bitrate());
        Long bitrate = null;
        if (bitrateText != null) {
            if (!udp) {
                bitrateAt.add("bitrate", "bitrate applies to UDP tests; add 'udp: true' or remove it");
            }
            Quantity q = bitrateAt.quantity("bitrate", bitrateText, Dimension.RATE);
            if (q != null) {
                bitrate = Math.round(q.in(Unit.BIT_PER_S));
            }
        }
        Integer tos = tos(
                own.tos() != null ? here : measurement,
                pick(own.tos(), outer.tos()),
                own.dscp() != null ? here : measurement,
                pick(own.dscp(), outer.dscp()));
        String congestionText = pick(own.congestion(), outer.congestion());
        // The schema admits only cubic and reno.
        Congestion congestion =
                congestionText == null ? Congestion.CUBIC : Congestion.valueOf(congestionText.toUpperCase(Locale.ROOT));
        // Made even when an option has a problem (recorded): value paths into it are still checked.
        return server == null
                ? null
                : new Flow(name, flowNode, server, port, parallel, reverse, udp, bitrate, tos, congestion);
    }

    /** The flow's own value when it sets one, else the measurement's. */
    private static <T> T pick(T own, T outer) {
        return own != null ? own : outer;
    }

    /** {@code tos: 0x10} (the whole byte) or {@code dscp: 46 | EF | AF41 | CS1} (shifted into the byte's top six bits). */
    private static Integer tos(OptionReader tosAt, String tosText, OptionReader dscpAt, String dscpText) {
        if (tosText != null && dscpText != null) {
            dscpAt.add("dscp", "give either tos or dscp, not both (the DSCP is the TOS byte's top six bits)");
            return null;
        }
        if (tosText != null) {
            Integer tos = null;
            try {
                tos = Integer.decode(tosText.strip());
            } catch (NumberFormatException e) {
                // reported below
            }
            if (tos == null || tos < 0 || tos > 255) {
                tosAt.add("tos", "expected a whole number from 0 to 255 (e.g. 0x10), found '" + tosText + "'");
                return null;
            }
            return tos;
        }
        if (dscpText == null) {
            return null;
        }
        Integer dscp = dscp(dscpText);
        if (dscp == null) {
            dscpAt.add(
                    "dscp", "'" + dscpText + "' is not a DSCP: a number 0-63, EF, AFxy (AF11-AF43) or CSx (CS0-CS7)");
            return null;
        }
        return dscp << 2;
    }

    static Integer dscp(String text) {
        String t = text.strip();
        if (t.equalsIgnoreCase("ef")) {
            return 46;
        }
        if (t.equalsIgnoreCase("be")) {
            return 0;
        }
        Matcher af = AF.matcher(t);
        if (af.matches()) {
            return 8 * Integer.parseInt(af.group(1)) + 2 * Integer.parseInt(af.group(2));
        }
        Matcher cs = CS.matcher(t);
        if (cs.matches()) {
            return 8 * Integer.parseInt(cs.group(1));
        }
        try {
            int n = Integer.decode(t);
            return n >= 0 && n <= 63 ? n : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    @Override
    public String kind() {
        return "iperf3";
    }

    /** Whether the flows are named ({@code flows:}), so their results sit under {@code flows.<name>}. */
    public boolean named() {
        return !flows.get(0).name().isEmpty();
    }

    /**
     * The first flow's client line against the lowest server port, for reading; the runner starts each flow against
     * its own server's port ({@link Flow#argv}).
     */
    @Override
    public List<String> argv() {
        return flows.get(0).argv(seconds, FIRST_SERVER_PORT);
    }

    @Override
    public Duration timeout() {
        return Duration.ofSeconds(seconds + 15L);
    }

    @Override
    public Duration runTime() {
        return Duration.ofSeconds(seconds);
    }

    /** One flow's result ({@link #combine} makes the measurement's of several). */
    @Override
    public MeasurementOutcome read(ExecResult exec) {
        String raw = OutputReader.excerptOfRaw(exec);
        try {
            IperfResult result = IperfParser.parse(exec.stdout());
            Map<String, Object> tree = tree(result);
            return result.failed()
                    ? new MeasurementOutcome(tree, raw, "iperf3 reported: " + result.error())
                    : OutputReader.ok(tree, raw);
        } catch (OutputParseException e) {
            return OutputReader.unreadable(raw, e);
        }
    }

    /** The measurement's outcome from its flows' (by flow name, in order): sums at the top, each flow under flows. */
    public MeasurementOutcome combine(Map<String, MeasurementOutcome> byFlow) {
        if (!named()) {
            return byFlow.values().iterator().next();
        }
        Map<String, Object> tree = new LinkedHashMap<>();
        Map<String, Object> each = new LinkedHashMap<>();
        StringBuilder raw = new StringBuilder();
        String error = null;
        double bits = 0;
        double sent = 0;
        List<Double> received = new ArrayList<>();
        for (Map.Entry<String, MeasurementOutcome> e : byFlow.entrySet()) {
            MeasurementOutcome o = e.getValue();
            each.put(e.getKey(), o.values());
            raw.append("[flow ")
                    .append(e.getKey())
                    .append("]\n")
                    .append(o.raw())
                    .append('\n');
            if (o.error() != null && error == null) {
                error = "flow " + e.getKey() + ": " + o.error();
            }
            double flowBits = o.values().get("bits_per_second") instanceof Measure m ? m.value() : 0;
            bits += flowBits;
            received.add(flowBits);
            sent += o.values().get("sent_bits_per_second") instanceof Measure m ? m.value() : 0;
        }
        if (error == null) {
            tree.put("mbps", new Measure(bits / 1e6, Unit.MBIT_PER_S));
            tree.put("bits_per_second", new Measure(bits, Unit.BIT_PER_S));
            tree.put("sent_bits_per_second", new Measure(sent, Unit.BIT_PER_S));
            jain(received).ifPresent(j -> tree.put(JAIN, new Measure(j, Unit.NONE)));
        }
        tree.put(FLOWS, each);
        String text = raw.length() <= OutputReader.MAX_RAW_CHARS
                ? raw.toString()
                : raw.substring(0, OutputReader.MAX_RAW_CHARS) + "\n[tclab: output cut here]";
        return new MeasurementOutcome(tree, text, error);
    }

    /**
     * Jain's fairness index of the rates x1..xn: (Σx)² / (n·Σx²). 1 when every flow got the same, 1/n when one flow
     * got everything; empty when no flow received anything (the index is then undefined).
     */
    public static OptionalDouble jain(List<Double> rates) {
        double sum = 0;
        double squares = 0;
        for (double x : rates) {
            sum += x;
            squares += x * x;
        }
        return rates.isEmpty() || squares <= 0
                ? OptionalDouble.empty()
                : OptionalDouble.of(sum * sum / (rates.size() * squares));
    }

    private static Map<String, Object> tree(IperfResult r) {
        Map<String, Object> tree = new LinkedHashMap<>();
        if (r.failed()) {
            tree.put("error", r.error());
            return tree;
        }
        tree.put("mbps", new Measure(r.mbps(), Unit.MBIT_PER_S));
        tree.put("bits_per_second", new Measure(r.bitsPerSecond(), Unit.BIT_PER_S));
        tree.put("sent_bits_per_second", new Measure(r.sentBitsPerSecond(), Unit.BIT_PER_S));
        tree.put("seconds", new Measure(r.seconds(), Unit.S));
        tree.put("bytes", new Measure(r.bytes(), Unit.BYTES));
        if (r.retransmits() != null) {
            tree.put("retransmits", new Measure(r.retransmits(), Unit.NONE));
        }
        if (r.lostPercent() != null) {
            tree.put("lost_percent", new Measure(r.lostPercent(), Unit.PERCENT));
            tree.put("jitter_ms", new Measure(r.jitterMs(), Unit.MS));
        }
        return tree;
    }

    @Override
    public Map<String, Unit> fields() {
        return FIELDS;
    }

    @Override
    public Optional<Unit> unitAt(ValuePath path) {
        List<String> s = path.segments();
        if (s.size() == 2) {
            return Optional.ofNullable(FIELDS.get(s.get(1)));
        }
        return s.size() == 4 && s.get(1).equals(FLOWS) ? Optional.ofNullable(FIELDS.get(s.get(3))) : Optional.empty();
    }

    /** A path that cannot exist: a flow this measurement does not have, or a field a flow's result lacks. */
    @Override
    public Optional<String> pathProblem(ValuePath path) {
        List<String> s = path.segments();
        if (s.get(1).equals(JAIN) && !named()) {
            return Optional.of("'" + path.root() + ".jain' compares the shares of several flows; '" + path.root()
                    + "' has one flow: name two or more under 'flows'");
        }
        if (!s.get(1).equals(FLOWS)) {
            return Optional.empty();
        }
        List<String> names = flows.stream().map(Flow::name).toList();
        if (!named()) {
            return Optional.of("'" + path.root() + "' has one flow, whose results are at the top (" + path.root()
                    + ".mbps); name flows under 'flows' to address each");
        }
        if (s.size() < 3 || !names.contains(s.get(2))) {
            return Optional.of("'" + path.root() + "' has the flows " + String.join(", ", names) + "; found "
                    + (s.size() < 3 ? "none" : "'" + s.get(2) + "'"));
        }
        if (s.size() != 4
                || !FIELDS.containsKey(s.get(3))
                || s.get(3).equals(FLOWS)
                || s.get(3).equals(JAIN)) {
            return Optional.of("a flow's result is " + path.root() + ".flows." + s.get(2) + ".<field>, a field of "
                    + String.join(
                            ", ",
                            FIELDS.keySet().stream()
                                    .filter(k -> !k.equals(FLOWS) && !k.equals(JAIN))
                                    .sorted()
                                    .toList()));
        }
        return Optional.empty();
    }

    /** One measurement slot per flow: each is a throughput measurement on the host's CPUs. */
    @Override
    public int slots() {
        return flows.size();
    }

    @Override
    public boolean load() {
        return true;
    }
}
