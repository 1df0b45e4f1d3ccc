package dev.tclab.grading.run;

import dev.tclab.grading.evaluate.FlowRoute;
import dev.tclab.grading.parse.IperfParser;
import dev.tclab.grading.spec.Iperf3Measurement;
import dev.tclab.grading.spec.Measure;
import dev.tclab.grading.spec.MeasurementOutcome;
import dev.tclab.runtime.CommandSequence;
import dev.tclab.runtime.ExecResult;
import dev.tclab.tc.ClassParser;
import dev.tclab.tc.Qdisc;
import dev.tclab.tc.QdiscParser;
import dev.tclab.tc.QdiscStats;
import dev.tclab.tc.TcClass;
import dev.tclab.tc.TcParseException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds where a flow went on the node that sent it: every qdisc and class of that node is read right before and right
 * after the flow, and those whose byte counter rose by about the flow's bytes counted it (issue 40: a check whose flow
 * went to the default class said only that the class it watched did not rise). An upload's sender is its client, read
 * in the flow's own exec (no exec of its own); a reverse flow's is the server's node, read in an exec of its own on
 * each side of the flow (the server runs in another node than the client's exec).
 */
final class FlowTrace {

    /** The least a counter must rise, against the flow's payload bytes: the wire also carries headers. */
    private static final double AT_LEAST = 0.9;
    /**
     * The most, against the flow's payload bytes: headers (1514 wire bytes for 1448 of payload) and the flow's own
     * control connection stay well under it, and a parent that also counted another flow of the same load as large goes
     * over it.
     */
    private static final double AT_MOST = 1.5;

    private static final Duration READ_TIMEOUT = Duration.ofSeconds(5);
    /** Starts the qdiscs in the read's output; tc never prints a line of this form. */
    private static final String QDISCS = "@@tclab-qdiscs";
    /** Starts each device's classes in the read's output. */
    private static final String DEVICE = "@@tclab-dev ";
    /**
     * Every qdisc of the node, then the classes of each of its devices (tc shows classes one device at a time), in one
     * command: the node's sidecar forks one shell for it.
     */
    private static final List<CommandSequence.Step> READS = List.of(new CommandSequence.Step(
            List.of(
                    "sh",
                    "-c",
                    // The devices from /proc/net/dev, which shows the reader's own network namespace (the
                    // platform's read in a lab with a kernel of its own sees a sysfs that lists only lo).
                    "echo " + QDISCS + "; tc -s -j qdisc show; { read -r _; read -r _; while IFS=' :' read -r d _;"
                            + " do echo \"" + DEVICE + "$d\"; tc -s class show dev \"$d\"; done; } < /proc/net/dev"),
            READ_TIMEOUT));

    private final boolean onServer;

    private FlowTrace(boolean onServer) {
        this.onServer = onServer;
    }

    /** The trace of {@code flow}: on its client, or on the server's node for a reverse flow, which that node sends. */
    static FlowTrace of(Iperf3Measurement.Flow flow) {
        return new FlowTrace(flow.reverse());
    }

    /** The read run in the client's exec right before the flow and again right after it; none for a reverse flow. */
    List<CommandSequence.Step> readsOnClient() {
        return onServer ? List.of() : READS;
    }

    /** The read run on the server's node right before the flow and again right after it; only for a reverse flow. */
    List<CommandSequence.Step> readsOnServer() {
        return onServer ? READS : List.of();
    }

    /**
     * Where the flow went, from the reads before and after it on its sender ({@code serverNode} for a reverse flow);
     * empty when the flow reports no bytes (it failed), or a read is missing or could not be parsed (the learner's tc
     * tree is never a reason to fail a check).
     */
    Optional<FlowRoute> route(
            String load,
            Iperf3Measurement.Flow flow,
            String serverNode,
            int serverPort,
            List<ExecResult> before,
            List<ExecResult> after,
            ExecResult client,
            MeasurementOutcome outcome) {
        if (before.isEmpty() || after.isEmpty() || !(outcome.values().get("bytes") instanceof Measure measured)) {
            return Optional.empty();
        }
        long bytes = (long) measured.value();
        List<FlowRoute.Counted> counted = new ArrayList<>();
        try {
            Map<String, String> was = sections(before.get(0).stdout());
            Map<String, String> is = sections(after.get(0).stdout());
            List<Qdisc> qdiscsAfter = QdiscParser.parseJson(is.getOrDefault(QDISCS, ""));
            Map<String, QdiscStats> qdiscsBefore = new HashMap<>();
            QdiscParser.parseJson(was.getOrDefault(QDISCS, ""))
                    .forEach(q -> qdiscsBefore.put(q.dev() + " " + q.handle(), q.stats()));
            for (Qdisc q : qdiscsAfter) {
                rise(qdiscsBefore.get(q.dev() + " " + q.handle()), q.stats(), bytes)
                        .ifPresent(r -> counted.add(new FlowRoute.Counted(
                                q.dev(), FlowRoute.Counted.QDISC, q.handle(), q.kind(), r[0], r[1], false, false)));
            }
            for (Map.Entry<String, String> section : is.entrySet()) {
                if (!section.getKey().startsWith(DEVICE)) {
                    continue;
                }
                String dev = section.getKey().substring(DEVICE.length());
                List<Qdisc> qdiscs =
                        qdiscsAfter.stream().filter(q -> dev.equals(q.dev())).toList();
                counted.addAll(classes(
                        dev,
                        was.getOrDefault(section.getKey(), ""),
                        section.getValue(),
                        defaultClasses(qdiscs),
                        bytes));
            }
        } catch (TcParseException e) {
            return Optional.empty();
        }
        return Optional.of(new FlowRoute(
                load,
                flow.name(),
                onServer ? serverNode : flow.node(),
                onServer,
                flow.udp() ? "udp" : "tcp",
                IperfParser.clientPort(client.stdout()),
                serverPort,
                flow.tos() == null ? 0 : flow.tos(),
                bytes,
                List.copyOf(counted)));
    }

    /** The read's output split at its markers: the qdiscs under {@code @@tclab-qdiscs}, each device's classes under its. */
    static Map<String, String> sections(String output) {
        Map<String, String> sections = new LinkedHashMap<>();
        String marker = null;
        StringBuilder text = new StringBuilder();
        for (String line : output.split("\n")) {
            if (line.equals(QDISCS) || line.startsWith(DEVICE)) {
                if (marker != null) {
                    sections.put(marker, text.toString());
                }
                marker = line.strip();
                text.setLength(0);
            } else {
                text.append(line).append('\n');
            }
        }
        if (marker != null) {
            sections.put(marker, text.toString());
        }
        return sections;
    }

    private static List<FlowRoute.Counted> classes(
            String dev, String before, String after, List<String> defaults, long bytes) throws TcParseException {
        List<FlowRoute.Counted> counted = new ArrayList<>();
        List<TcClass> classesAfter = ClassParser.parse(after);
        Map<String, QdiscStats> classesBefore = new HashMap<>();
        ClassParser.parse(before).forEach(c -> classesBefore.put(c.classId(), c.stats()));
        for (TcClass c : classesAfter) {
            boolean leaf = classesAfter.stream().noneMatch(child -> c.classId().equals(child.parent()));
            boolean byDefault = defaults.contains(c.classId());
            rise(classesBefore.get(c.classId()), c.stats(), bytes)
                    .ifPresent(r -> counted.add(new FlowRoute.Counted(
                            dev, FlowRoute.Counted.CLASS, c.classId(), c.kind(), r[0], r[1], leaf, byDefault)));
        }
        return counted;
    }

    /**
     * The rise of the bytes and packets counters, when the bytes rose by about {@code bytes}. An entry that did not
     * exist before, or whose counter went down (replaced), counts from zero, as a check's {@code over} reads do.
     */
    private static Optional<long[]> rise(QdiscStats before, QdiscStats after, long bytes) {
        QdiscStats from = before == null || before.bytes() > after.bytes() ? QdiscStats.NONE : before;
        long rose = after.bytes() - from.bytes();
        if (rose < AT_LEAST * bytes || rose > AT_MOST * bytes) {
            return Optional.empty();
        }
        return Optional.of(new long[] {rose, after.packets() - from.packets()});
    }

    /**
     * The classes the qdiscs send unclassified traffic to: HTB's {@code default 20} on handle {@code 1:} is class
     * {@code 1:20} (tc prints the minor in hex, {@code "default": "0x20"} in its JSON).
     */
    static List<String> defaultClasses(List<Qdisc> qdiscs) {
        List<String> classes = new ArrayList<>();
        for (Qdisc q : qdiscs) {
            Object value = q.options().get("default");
            if (!"htb".equals(q.kind()) || value == null) {
                continue;
            }
            long minor;
            try {
                String text = String.valueOf(value).strip();
                minor = text.startsWith("0x") ? Long.parseLong(text.substring(2), 16) : Long.parseLong(text);
            } catch (NumberFormatException e) {
                continue;
            }
            if (minor != 0) {
                classes.add(q.handle().replaceAll(":.*", "") + ":" + Long.toHexString(minor));
            }
        }
        return classes;
    }
}
