package dev.tclab.grading;

import dev.tclab.grading.parse.IperfParser;
import dev.tclab.grading.parse.IperfResult;
import dev.tclab.grading.parse.OutputParseException;
import dev.tclab.lab.ExecResult;
import dev.tclab.yaml.YamlNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code iperf3: { server, seconds, ... }}: one or more iperf3 flows loading the link together for {@code seconds},
 * each against a one-off server of the platform's own (see {@link IperfServer}). Without {@code flows} it is one
 * flow and its results sit at the top ({@code up.mbps}); with {@code flows: { a: {...}, b: {...} }} each flow's
 * results sit under {@code flows.<name>} and the top holds their sums ({@code mbps}, {@code bits_per_second}).
 *
 * @param flows the flows, in the order written; one unnamed flow ({@code ""}) without {@code flows}
 */
public record Iperf3Measurement(Common common, int seconds, List<Flow> flows) implements Measurement {

    /**
     * One iperf3 client.
     *
     * @param node    the node the client runs in (the measurement's node unless the flow names another)
     * @param port    the port of its one-off server, or null for a random free one from 20000-29999
     * @param bitrate UDP only: the rate it sends at, in bit/s, or null for iperf3's default (1 Mbit/s)
     * @param tos     the IP TOS byte its packets carry (a DSCP shifted left by 2), or null
     */
    public record Flow(String name, String node, String server, Integer port, int parallel, boolean reverse,
                       boolean udp, Long bitrate, Integer tos) {

        /**
         * The client's command line against {@code port}. Congestion control is pinned to cubic: the host's
         * default (bbr) does not fill buffers, so no bloat would show.
         */
        public List<String> argv(int seconds, int port) {
            List<String> argv = new ArrayList<>(List.of("iperf3", "-c", server, "-J", "-C", "cubic",
                    "-t", Integer.toString(seconds), "-p", Integer.toString(port)));
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

    static final String FLOWS = "flows";
    /** Most flows in one measurement: each takes a measurement slot and a server process. */
    static final int MAX_FLOWS = 4;
    private static final List<String> FLOW_OPTIONS = List.of("server", "node", "port", "parallel", "reverse", "udp",
            "bitrate", "tos", "dscp");
    private static final List<String> OPTIONS;
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]{0,31}");
    private static final Pattern AF = Pattern.compile("(?i)af([1-4])([1-3])");
    private static final Pattern CS = Pattern.compile("(?i)cs([0-7])");
    private static final Map<String, Unit> FIELDS = Map.of("mbps", Unit.MBIT_PER_S, "bits_per_second", Unit.BIT_PER_S,
            "sent_bits_per_second", Unit.BIT_PER_S, "retransmits", Unit.NONE, "seconds", Unit.S, "bytes", Unit.BYTES,
            "lost_percent", Unit.PERCENT, "jitter_ms", Unit.MS, "error", Unit.NONE, FLOWS, Unit.NONE);

    static {
        List<String> options = new ArrayList<>(List.of("seconds", FLOWS));
        options.addAll(FLOW_OPTIONS);
        options.remove("node");
        OPTIONS = List.copyOf(options);
    }

    static Measurement read(Common common, YamlNode entry, OptionReader options) {
        YamlNode o = options.mapping(entry.get("iperf3"), "iperf3", OPTIONS, false);
        if (o == null) {
            return null;
        }
        int seconds = options.integer(o, "seconds", 5, 1, 30);
        YamlNode flowsNode = o.get(FLOWS);
        if (flowsNode == null) {
            Flow flow = flow(options, o, "", common.node(), null);
            return flow == null ? null : new Iperf3Measurement(common, seconds, List.of(flow));
        }
        if (!flowsNode.isMap() || flowsNode.entries().isEmpty()) {
            options.add(flowsNode, "flows is a mapping of flow names to their options, e.g. "
                    + "flows: { a: { tos: 0x10 }, b: { port: 5002 } }");
            return null;
        }
        if (flowsNode.entries().size() > MAX_FLOWS) {
            options.add(flowsNode, "at most " + MAX_FLOWS + " flows run in one measurement; found " + flowsNode.entries().size());
        }
        List<Flow> flows = new ArrayList<>();
        boolean ok = true;
        for (Map.Entry<String, YamlNode> e : flowsNode.entries().entrySet()) {
            if (!NAME.matcher(e.getKey()).matches()) {
                options.add(e.getValue(), "a flow name is a lowercase letter, then letters, digits or '_'; found '" + e.getKey() + "'");
                ok = false;
                continue;
            }
            YamlNode f = e.getValue().isScalar() && (e.getValue().text() == null || e.getValue().text().isEmpty())
                    ? null : options.mapping(e.getValue(), "flow", FLOW_OPTIONS, false);
            if (f == null && !e.getValue().isScalar()) {
                ok = false;
                continue;
            }
            Flow flow = flow(options, f, e.getKey(), common.node(), o);
            if (flow == null) {
                ok = false;
            } else {
                flows.add(flow);
            }
        }
        if (ok) {
            List<Integer> fixed = flows.stream().map(Flow::port).filter(p -> p != null).toList();
            if (fixed.stream().distinct().count() < fixed.size()) {
                options.add(flowsNode, "two flows name the same port; each flow has its own server, so give each its own port");
            }
        }
        return ok ? new Iperf3Measurement(common, seconds, List.copyOf(flows)) : null;
    }

    /** A flow's options, each falling back to the measurement's ({@code outer}), then to iperf3's defaults. */
    private static Flow flow(OptionReader options, YamlNode own, String name, String node, YamlNode outer) {
        YamlNode serverAt = own != null && own.get("server") != null ? own : outer != null && outer.get("server") != null ? outer : own;
        String server = serverAt == null ? null : options.address(serverAt, "server", true);
        if (serverAt == null) {
            options.add(outer, "flow '" + name + "' has no server: give the measurement or the flow 'server'");
        }
        String flowNode = own != null && own.get("node") != null ? options.text(own, "node") : node;
        Integer port = integerOrNull(options, own, outer, "port", 1024, 65535);
        int parallel = Optional.ofNullable(integerOrNull(options, own, outer, "parallel", 1, 8)).orElse(1);
        boolean reverse = options.bool(pick(own, outer, "reverse"), "reverse", false);
        boolean udp = options.bool(pick(own, outer, "udp"), "udp", false);
        Long bitrate = null;
        YamlNode bitrateAt = pick(own, outer, "bitrate");
        if (bitrateAt != null && bitrateAt.get("bitrate") != null) {
            if (!udp) {
                options.add(bitrateAt.get("bitrate"), "bitrate applies to UDP tests; add 'udp: true' or remove it");
            }
            Quantity q = options.quantity(bitrateAt.get("bitrate"), Dimension.RATE);
            if (q != null) {
                bitrate = Math.round(q.in(Unit.BIT_PER_S));
            }
        }
        Integer tos = tos(options, pick(own, outer, "tos"), pick(own, outer, "dscp"));
        return server == null ? null : new Flow(name, flowNode, server, port, parallel, reverse, udp, bitrate, tos);
    }

    /** The flow's own mapping when it sets {@code key}, else the measurement's. */
    private static YamlNode pick(YamlNode own, YamlNode outer, String key) {
        return own != null && own.get(key) != null ? own : outer;
    }

    private static Integer integerOrNull(OptionReader options, YamlNode own, YamlNode outer, String key, int min, int max) {
        YamlNode at = pick(own, outer, key);
        if (at == null || at.get(key) == null) {
            return null;
        }
        int value = options.integer(at, key, Integer.MIN_VALUE, min, max);
        return value == Integer.MIN_VALUE ? null : value;
    }

    /** {@code tos: 0x10} (the whole byte) or {@code dscp: 46 | EF | AF41 | CS1} (shifted into the byte's top six bits). */
    private static Integer tos(OptionReader options, YamlNode tosAt, YamlNode dscpAt) {
        boolean hasTos = tosAt != null && tosAt.get("tos") != null;
        boolean hasDscp = dscpAt != null && dscpAt.get("dscp") != null;
        if (hasTos && hasDscp) {
            options.add(dscpAt.get("dscp"), "give either tos or dscp, not both (the DSCP is the TOS byte's top six bits)");
            return null;
        }
        if (hasTos) {
            int tos = options.integer(tosAt, "tos", -1, 0, 255);
            return tos < 0 ? null : tos;
        }
        if (!hasDscp) {
            return null;
        }
        String text = options.checks().scalar(dscpAt.get("dscp"), "");
        Integer dscp = dscp(text);
        if (dscp == null) {
            options.add(dscpAt.get("dscp"), "'" + text + "' is not a DSCP: a number 0-63, EF, AFxy (AF11-AF43) or CSx (CS0-CS7)");
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
        return flows.get(0).argv(seconds, IperfServer.FIRST_PORT);
    }

    @Override
    public Duration timeout() {
        return Duration.ofSeconds(seconds + 15L);
    }

    /** One flow's result ({@link #combine} makes the measurement's of several). */
    @Override
    public MeasurementOutcome read(ExecResult exec) {
        String raw = OutputReader.excerptOfRaw(exec);
        try {
            IperfResult result = IperfParser.parse(exec.stdout());
            Map<String, Object> tree = tree(result);
            return result.failed() ? new MeasurementOutcome(tree, raw, "iperf3 reported: " + result.error())
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
        for (Map.Entry<String, MeasurementOutcome> e : byFlow.entrySet()) {
            MeasurementOutcome o = e.getValue();
            each.put(e.getKey(), o.values());
            raw.append("[flow ").append(e.getKey()).append("]\n").append(o.raw()).append('\n');
            if (o.error() != null && error == null) {
                error = "flow " + e.getKey() + ": " + o.error();
            }
            bits += o.values().get("bits_per_second") instanceof Measure m ? m.value() : 0;
            sent += o.values().get("sent_bits_per_second") instanceof Measure m ? m.value() : 0;
        }
        if (error == null) {
            tree.put("mbps", new Measure(bits / 1e6, Unit.MBIT_PER_S));
            tree.put("bits_per_second", new Measure(bits, Unit.BIT_PER_S));
            tree.put("sent_bits_per_second", new Measure(sent, Unit.BIT_PER_S));
        }
        tree.put(FLOWS, each);
        String text = raw.length() <= OutputReader.MAX_RAW_CHARS ? raw.toString()
                : raw.substring(0, OutputReader.MAX_RAW_CHARS) + "\n[tclab: output cut here]";
        return new MeasurementOutcome(tree, text, error);
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
        if (s.size() != 4 || !FIELDS.containsKey(s.get(3)) || s.get(3).equals(FLOWS)) {
            return Optional.of("a flow's result is " + path.root() + ".flows." + s.get(2) + ".<field>, a field of "
                    + String.join(", ", FIELDS.keySet().stream().filter(k -> !k.equals(FLOWS)).sorted().toList()));
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
