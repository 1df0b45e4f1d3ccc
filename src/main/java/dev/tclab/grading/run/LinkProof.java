package dev.tclab.grading.run;

import dev.tclab.grading.spec.Iperf3Measurement;
import dev.tclab.grading.spec.Measure;
import dev.tclab.grading.spec.Measurement;
import dev.tclab.grading.spec.MeasurementOutcome;
import dev.tclab.grading.spec.OutputReader;
import dev.tclab.grading.spec.PingMeasurement;
import dev.tclab.lab.Lab;
import dev.tclab.lab.LabService;
import dev.tclab.runtime.CommandSequence;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.topology.Topology;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Proves that an iperf3 flow crossed the links it grades (issue 25, row 1: a learner moved the server's address to
 * the client's {@code lo}, shaped {@code lo}, and a tbf check passed on an unshaped link). Two proofs, both from
 * outside the learner's reach:
 * <ul>
 *   <li>the one-off server runs on the node that lab.yml gives the server address to (its setup's
 *       {@code ip addr add}), not wherever the learner moved that address since;</li>
 *   <li>the client's lab links carried the flow: their kernel counters ({@code /proc/net/dev}, read by the
 *       platform in the client's measurement sidecar right before and after the flow) grew by at least the bytes
 *       iperf3 reports (tx for an upload, rx with {@code -R}). For UDP, the bytes that arrived: iperf3's count less
 *       its lost datagrams, since a UDP sender's datagrams that its own qdisc drops never reach the wire.</li>
 * </ul>
 * And grading hears both ends (issue 43, row 3: a {@code local} route for the server's address on the client, a relay to
 * the learner's own iperf3 and broadcast padding on the link passed a shaping step on an unshaped link):
 * <ul>
 *   <li>right before the flow, its client's route to the server leads out of one of its lab links ({@link
 *       RouteProof});</li>
 *   <li>the platform's own server counted the bytes iperf3 reports on the client, in its own report;</li>
 *   <li>the server node's lab links carried them too: their counters, read before the load and after the flow, grew
 *       by at least those bytes (rx for an upload, tx with {@code -R}), so the bytes the server counted came over
 *       the lab's links, not from a process on the server node itself.</li>
 * </ul>
 * A flow that fails any of these is a failed measurement with a sentence saying what to put back.
 */
@ApplicationScoped
public class LinkProof {

    /** Wire bytes carry headers too, so a crossing flow always counts more than its payload; this only absorbs rounding. */
    private static final double ACCOUNTED = 0.95;

    private static final CommandSequence.Step READ =
            new CommandSequence.Step(List.of("cat", "/proc/net/dev"), Duration.ofSeconds(5));
    /** A node's ICMP counters, read around a ping on the node its target belongs to. */
    static final CommandSequence.Step ECHOES =
            new CommandSequence.Step(List.of("cat", "/proc/net/snmp"), Duration.ofSeconds(5));

    private final Function<String, Optional<Topology>> topologies;
    /** Labs outside the app's, proven all the same: the self-test's ({@link #proving}). */
    private final Map<String, Topology> provenToo = new ConcurrentHashMap<>();

    @Inject
    public LinkProof(LabService labs) {
        this(labId -> labs.all().stream()
                .filter(l -> l.id().equals(labId))
                .findFirst()
                .map(Lab::topology));
    }

    LinkProof(Function<String, Optional<Topology>> learnersLabs) {
        this.topologies = labId -> {
            Topology also = provenToo.get(labId);
            return also != null ? Optional.of(also) : learnersLabs.apply(labId);
        };
    }

    /**
     * Proves the flows and pings of {@code labId}, a lab that is not a learner's (a lesson's self-test), against
     * {@code topology} until the returned handle is closed: a lesson's self-test then grades as its learners' checks
     * do, so a proof that would refuse an honest solution fails the self-test, not only the learner.
     */
    public Proving proving(String labId, Topology topology) {
        provenToo.put(labId, topology);
        return () -> provenToo.remove(labId);
    }

    /** Ends the proof of a lab {@link #proving} named. */
    public interface Proving extends AutoCloseable {
        @Override
        void close();
    }

    /** What guards one flow of a lab: a refusal before it runs, or the counter reads around it and their verdict. */
    public record Guard(
            String refusal,
            String node,
            String server,
            IperfServer.Started serverEnd,
            List<String> interfaces,
            List<String> serverInterfaces,
            boolean reverse,
            boolean counted,
            boolean udp) {

        /**
         * The flow's load, when it is proven by its client's counters: after the read of the client's route to the
         * server ({@link RouteProof}), between reads of the counters.
         */
        public List<CommandSequence.Step> around(CommandSequence.Step load) {
            return counted ? List.of(RouteProof.read(server), READ, load, READ) : List.of(load);
        }

        /** Where the load's result is among those of {@link #around}. */
        public int loadIndex() {
            return counted ? 2 : 0;
        }

        /** What is read on the server's node before the load: its link counters, when the flow is proven. */
        List<CommandSequence.Step> onServerBefore() {
            return counted && !serverInterfaces.isEmpty() ? List.of(READ) : List.of();
        }

        /**
         * What is read on the server's node once the flow is done: its server's own report and its link counters, when
         * the flow is proven.
         */
        List<CommandSequence.Step> onServerAfter() {
            if (!counted) {
                return List.of();
            }
            CommandSequence.Step report = IperfServer.report(serverEnd.port());
            return serverInterfaces.isEmpty() ? List.of(report) : List.of(report, READ);
        }

        /**
         * The flow's outcome, failed with a sentence when its client's route did not lead out of its lab links, when
         * its client's links did not carry what iperf3 reports, when the server did not count it, or when the server's
         * links did not carry it. {@code around} holds the results of {@link #around}, {@code serverBefore} those of
         * {@link #onServerBefore}, {@code onServer} those of {@link #onServerAfter}.
         */
        MeasurementOutcome judge(
                List<ExecResult> around,
                List<ExecResult> serverBefore,
                List<ExecResult> onServer,
                MeasurementOutcome flow) {
            if (!counted) {
                return flow;
            }
            Optional<String> offRoute =
                    RouteProof.refusal(node, server, interfaces, around.get(0).stdout());
            if (offRoute.isPresent()) {
                return failed(flow, capitalised(offRoute.get()));
            }
            if (flow.error() != null || !(flow.values().get("bytes") instanceof Measure bytes)) {
                return flow;
            }
            OptionalLong carried = carried(interfaces, around.get(1), around.get(3), !reverse);
            if (carried.isEmpty()) {
                return failed(flow, noInterface("client", node, interfaces));
            }
            double arrived = bytes.value();
            if (udp && flow.values().get("lost_percent") instanceof Measure lost) {
                arrived *= Math.max(0, 1 - lost.value() / 100);
            }
            if (carried.getAsLong() < ACCOUNTED * arrived) {
                return failed(flow, notCarried((long) arrived, carried.getAsLong()));
            }
            OptionalLong heard = IperfServer.counted(onServer.get(0).stdout(), reverse);
            if (heard.isEmpty()) {
                return failed(
                        flow,
                        "The platform's iperf3 server on node " + serverEnd.node() + " (port " + serverEnd.port()
                                + ") heard from no client, so the flow iperf3 reports on node " + node + " did not "
                                + "reach the server node: a route, an address or a relay took it elsewhere. Put the "
                                + "lab's routes and addresses back (or reset the lab) and check again.");
            }
            if (heard.getAsLong() < ACCOUNTED * arrived) {
                return failed(
                        flow,
                        String.format(
                                "iperf3 on node %s reports %,d bytes%s, but the platform's iperf3 server on node %s "
                                        + "counted only %,d %s, so not all of the flow reached the server node. Put "
                                        + "the lab's routes and addresses back (or reset the lab) and check again.",
                                node,
                                (long) arrived,
                                udp ? " arrived" : "",
                                serverEnd.node(),
                                heard.getAsLong(),
                                reverse ? "sent" : "received"));
            }
            if (serverInterfaces.isEmpty()) {
                return flow;
            }
            OptionalLong overServerLinks = carried(serverInterfaces, serverBefore.get(0), onServer.get(1), reverse);
            if (overServerLinks.isEmpty()) {
                return failed(flow, noInterface("server", serverEnd.node(), serverInterfaces));
            }
            if (overServerLinks.getAsLong() < ACCOUNTED * arrived) {
                return failed(
                        flow,
                        String.format(
                                "iperf3 on node %s reports %,d bytes%s, but node %s's links (%s) %s only %,d bytes "
                                        + "during the flow, so the bytes the platform's iperf3 server counted did not "
                                        + "all cross the lab's link: a relay or a tunnel on the way made them. Put the "
                                        + "lab's routes and addresses back (or reset the lab) and check again.",
                                node,
                                (long) arrived,
                                udp ? " arrived" : "",
                                serverEnd.node(),
                                String.join(", ", serverInterfaces),
                                reverse ? "sent" : "received",
                                overServerLinks.getAsLong()));
            }
            return flow;
        }

        /**
         * The bytes {@code interfaces} sent ({@code sent}) or received between two reads of {@code /proc/net/dev};
         * empty when one of them is missing from a read.
         */
        private static OptionalLong carried(
                List<String> interfaces, ExecResult before, ExecResult after, boolean sent) {
            Map<String, long[]> start = counters(before.stdout());
            Map<String, long[]> end = counters(after.stdout());
            int column = sent ? 1 : 0;
            long carried = 0;
            for (String iface : interfaces) {
                long[] a = start.get(iface);
                long[] b = end.get(iface);
                if (a == null || b == null) {
                    return OptionalLong.empty();
                }
                carried += b[column] - a[column];
            }
            return OptionalLong.of(carried);
        }

        private static String noInterface(String role, String node, List<String> interfaces) {
            return "The flow's " + role + " node " + node + " lacks one of its lab links ("
                    + String.join(", ", interfaces)
                    + "), so nothing shows the flow crossed the lab's link; put it back (or reset the lab).";
        }

        private String notCarried(long arrived, long carried) {
            return String.format(
                    "iperf3 reports %,d bytes%s, but %s's links (%s) %s only %,d bytes during "
                            + "the flow, so its traffic did not cross the link this check grades (a route or an address moved "
                            + "it elsewhere, e.g. to lo). Undo that, keep the lab's addresses where lab.yml puts them, and "
                            + "check again.",
                    arrived,
                    udp ? " arrived" : "",
                    node,
                    String.join(", ", interfaces),
                    reverse ? "received" : "sent",
                    carried);
        }

        private static MeasurementOutcome failed(MeasurementOutcome flow, String why) {
            return new MeasurementOutcome(flow.values(), flow.raw(), why);
        }

        private static String capitalised(String sentence) {
            return Character.toUpperCase(sentence.charAt(0)) + sentence.substring(1);
        }
    }

    /** The guard of {@code flow} whose server started on {@code serverNode}. */
    Guard guard(String labId, Iperf3Measurement.Flow flow, IperfServer.Started server) {
        String serverNode = server.node();
        Optional<Topology> topology = topologies.apply(labId);
        if (topology.isEmpty()) {
            return new Guard(
                    null, flow.node(), flow.server(), server, List.of(), List.of(), flow.reverse(), false, flow.udp());
        }
        String owner = topology.get().addressOwners().get(flow.server());
        if (owner != null && !owner.equals(serverNode)) {
            return new Guard(
                    "The server address " + flow.server() + " belongs to node " + owner + " (lab.yml), but "
                            + "node " + serverNode
                            + " holds it now, so this measurement would not cross the link it grades. "
                            + "Put " + flow.server() + " back on " + owner + " and take it off " + serverNode
                            + " (or reset the "
                            + "lab), then check again.",
                    flow.node(),
                    flow.server(),
                    server,
                    List.of(),
                    List.of(),
                    flow.reverse(),
                    false,
                    flow.udp());
        }
        List<String> interfaces = topology.get().interfacesOf(flow.node());
        // A server on the flow's own node is reached over lo: its links prove nothing then.
        List<String> serverInterfaces =
                serverNode.equals(flow.node()) ? List.of() : topology.get().interfacesOf(serverNode);
        return new Guard(
                null,
                flow.node(),
                flow.server(),
                server,
                interfaces,
                serverInterfaces,
                flow.reverse(),
                !interfaces.isEmpty(),
                flow.udp());
    }

    /**
     * What runs a read measurement in its node: a ping after the read of its node's route to its target ({@link
     * RouteProof}, issue 43 row 4: a local route and policy rules had the client answer its own pings), any other read
     * alone. In one exec either way.
     */
    List<CommandSequence.Step> stepsOf(String labId, Measurement m) {
        CommandSequence.Step read = new CommandSequence.Step(m.argv(), m.timeout());
        return routed(labId, m).isEmpty()
                ? List.of(read)
                : List.of(RouteProof.read(((PingMeasurement) m).target()), read);
    }

    /**
     * The node whose ICMP counters prove a ping's replies (issue 43, row 4): the one lab.yml gives its target to, when
     * that is not the ping's own node; empty for other reads. Its {@link #ECHOES} are read right before and after the
     * ping.
     */
    Optional<String> echoesOf(String labId, Measurement m) {
        if (!(m instanceof PingMeasurement ping)) {
            return Optional.empty();
        }
        return topologies
                .apply(labId)
                .map(t -> t.addressOwners().get(ping.target()))
                .filter(owner -> !owner.equals(m.node()));
    }

    /**
     * The outcome of a read measurement from the results of {@link #stepsOf}, failed when its route was refused, or
     * when the node its target belongs to sent fewer echo replies than the ping received: {@code echoesBefore} and
     * {@code echoesAfter} hold that node's {@link #ECHOES} read around it (empty when it has none, see {@link
     * #echoesOf}).
     */
    MeasurementOutcome read(
            String labId,
            Measurement m,
            List<ExecResult> ran,
            List<ExecResult> echoesBefore,
            List<ExecResult> echoesAfter) {
        List<String> links = routed(labId, m);
        if (links.isEmpty()) {
            return OutputReader.read(m, ran.get(0));
        }
        MeasurementOutcome read = OutputReader.read(m, ran.get(1));
        String target = ((PingMeasurement) m).target();
        Optional<String> offRoute =
                RouteProof.refusal(m.node(), target, links, ran.get(0).stdout());
        if (offRoute.isPresent()) {
            return Guard.failed(read, Guard.capitalised(offRoute.get()));
        }
        if (read.error() != null
                || echoesBefore.isEmpty()
                || echoesAfter.isEmpty()
                || !(read.values().get("received") instanceof Measure received)) {
            return read;
        }
        long replied = echoReplies(echoesAfter.get(0).stdout())
                - echoReplies(echoesBefore.get(0).stdout());
        if (replied >= received.value()) {
            return read;
        }
        return Guard.failed(
                read,
                String.format(
                        "Node %s's ping got %d replies from %s, but node %s, which lab.yml gives %s to, sent only %d, "
                                + "so the replies did not come from the server node: a route or an address on the "
                                + "way answered them. Put the lab's routes and addresses back (or reset the lab) and "
                                + "check again.",
                        m.node(),
                        (long) received.value(),
                        target,
                        echoesOf(labId, m).orElse(""),
                        target,
                        Math.max(0, replied)));
    }

    /** The ICMP echo replies a node's kernel sent ({@code OutEchoReps} of {@code /proc/net/snmp}), or -1 unread. */
    static long echoReplies(String procNetSnmp) {
        List<String> icmp =
                procNetSnmp.lines().filter(l -> l.startsWith("Icmp:")).toList();
        if (icmp.size() < 2) {
            return -1;
        }
        List<String> names = List.of(icmp.get(0).split("\\s+"));
        String[] values = icmp.get(1).split("\\s+");
        int at = names.indexOf("OutEchoReps");
        try {
            return at > 0 && at < values.length ? Long.parseLong(values[at]) : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The lab links of a ping's node, whose route to the target is proven; none for other reads. */
    private List<String> routed(String labId, Measurement m) {
        if (!(m instanceof PingMeasurement)) {
            return List.of();
        }
        return topologies.apply(labId).map(t -> t.interfacesOf(m.node())).orElse(List.of());
    }

    /** rx and tx bytes by interface, from {@code /proc/net/dev}. */
    static Map<String, long[]> counters(String procNetDev) {
        Map<String, long[]> counters = new HashMap<>();
        for (String line : procNetDev.split("\n")) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String[] fields = line.substring(colon + 1).trim().split("\\s+");
            if (fields.length < 9) {
                continue;
            }
            try {
                counters.put(
                        line.substring(0, colon).trim(),
                        new long[] {Long.parseLong(fields[0]), Long.parseLong(fields[8])});
            } catch (NumberFormatException e) {
                // The header lines.
            }
        }
        return counters;
    }
}
