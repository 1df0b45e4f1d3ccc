package dev.tclab.grading.run;

import dev.tclab.grading.spec.Iperf3Measurement;
import dev.tclab.grading.spec.Measure;
import dev.tclab.grading.spec.MeasurementOutcome;
import dev.tclab.lab.Lab;
import dev.tclab.lab.LabService;
import dev.tclab.lab.runtime.CommandSequence;
import dev.tclab.lab.runtime.ExecResult;
import dev.tclab.lab.topology.Topology;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
 * A flow that fails either is a failed measurement with a sentence saying what to put back.
 */
@ApplicationScoped
public class LinkProof {

    /** Wire bytes carry headers too, so a crossing flow always counts more than its payload; this only absorbs rounding. */
    private static final double ACCOUNTED = 0.95;

    private static final CommandSequence.Step READ =
            new CommandSequence.Step(List.of("cat", "/proc/net/dev"), Duration.ofSeconds(5));

    private final Function<String, Optional<Topology>> topologies;

    @Inject
    public LinkProof(LabService labs) {
        this(labId -> labs.all().stream()
                .filter(l -> l.id().equals(labId))
                .findFirst()
                .map(Lab::topology));
    }

    LinkProof(Function<String, Optional<Topology>> topologies) {
        this.topologies = topologies;
    }

    /** What guards one flow of a lab: a refusal before it runs, or the counter reads around it and their verdict. */
    public record Guard(
            String refusal, String node, List<String> interfaces, boolean reverse, boolean counted, boolean udp) {

        /** The flow's load, between reads of its client's counters when it is proven by them. */
        public List<CommandSequence.Step> around(CommandSequence.Step load) {
            return counted ? List.of(READ, load, READ) : List.of(load);
        }

        /** Where the load's result is among those of {@link #around}. */
        public int loadIndex() {
            return counted ? 1 : 0;
        }

        /**
         * The flow's outcome, failed with a sentence when its client's links did not carry what iperf3 reports.
         * {@code around} holds the results of {@link #around}.
         */
        MeasurementOutcome judge(List<ExecResult> around, MeasurementOutcome flow) {
            if (!counted || flow.error() != null || !(flow.values().get("bytes") instanceof Measure bytes)) {
                return flow;
            }
            Map<String, long[]> start = counters(around.get(0).stdout());
            Map<String, long[]> end = counters(around.get(2).stdout());
            long carried = 0;
            for (String iface : interfaces) {
                long[] a = start.get(iface);
                long[] b = end.get(iface);
                if (a == null || b == null) {
                    return failed(
                            flow,
                            "The flow's client node " + node + " has no interface " + iface + " any more, "
                                    + "so nothing shows the flow crossed the lab's link; put it back (or reset the lab).");
                }
                carried += b[reverse ? 0 : 1] - a[reverse ? 0 : 1];
            }
            double arrived = bytes.value();
            if (udp && flow.values().get("lost_percent") instanceof Measure lost) {
                arrived *= Math.max(0, 1 - lost.value() / 100);
            }
            if (carried >= ACCOUNTED * arrived) {
                return flow;
            }
            return failed(
                    flow,
                    String.format(
                            "iperf3 reports %,d bytes%s, but %s's links (%s) %s only %,d bytes during "
                                    + "the flow, so its traffic did not cross the link this check grades (a route or an address moved "
                                    + "it elsewhere, e.g. to lo). Undo that, keep the lab's addresses where lab.yml puts them, and "
                                    + "check again.",
                            (long) arrived,
                            udp ? " arrived" : "",
                            node,
                            String.join(", ", interfaces),
                            reverse ? "received" : "sent",
                            carried));
        }

        private static MeasurementOutcome failed(MeasurementOutcome flow, String why) {
            return new MeasurementOutcome(flow.values(), flow.raw(), why);
        }
    }

    /** The guard of {@code flow} whose server started on {@code serverNode}. */
    Guard guard(String labId, Iperf3Measurement.Flow flow, String serverNode) {
        Optional<Topology> topology = topologies.apply(labId);
        if (topology.isEmpty()) {
            return new Guard(null, flow.node(), List.of(), flow.reverse(), false, flow.udp());
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
                    List.of(),
                    flow.reverse(),
                    false,
                    flow.udp());
        }
        List<String> interfaces = topology.get().interfacesOf(flow.node());
        return new Guard(null, flow.node(), interfaces, flow.reverse(), !interfaces.isEmpty(), flow.udp());
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
