package dev.tclab.grading.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.tclab.grading.spec.Iperf3Measurement;
import dev.tclab.grading.spec.Measure;
import dev.tclab.grading.spec.MeasurementOutcome;
import dev.tclab.grading.spec.Unit;
import dev.tclab.lab.TestTopologies;
import dev.tclab.lab.runtime.ExecResult;
import dev.tclab.lab.topology.Topology;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Issue 25, row 1: what proves a flow crossed its link, on /proc/net/dev texts as the sidecar reads them. */
class LinkProofTest {

    private static final Topology TWO_NODE = TestTopologies.load("two-node");
    private final LinkProof proof = new LinkProof(labId -> Optional.of(TWO_NODE));

    private static Iperf3Measurement.Flow flow(boolean reverse, boolean udp) {
        return new Iperf3Measurement.Flow(
                "", "client", "10.0.0.2", null, 1, reverse, udp, null, null, Iperf3Measurement.Congestion.CUBIC);
    }

    private static final ExecResult IPERF = result("{}");

    private static ExecResult result(String stdout) {
        return new ExecResult(0, stdout, "", false, false);
    }

    private static ExecResult netDev(long loTx, long eth1Rx, long eth1Tx) {
        return result("""
                Inter-|   Receive                                                |  Transmit
                 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
                    lo: %d 10 0 0 0 0 0 0 %d 10 0 0 0 0 0 0
                  eth1: %d 20 0 0 0 0 0 0 %d 20 0 0 0 0 0 0
                """.formatted(loTx, loTx, eth1Rx, eth1Tx));
    }

    private static MeasurementOutcome sent(long bytes) {
        return new MeasurementOutcome(Map.of("bytes", new Measure(bytes, Unit.BYTES)), "{}", null);
    }

    @Test
    void shouldKnowWhichNodeLabYmlGivesEachAddress() {
        assertEquals(Map.of("10.0.0.1", "client", "10.0.0.2", "server"), TWO_NODE.addressOwners());
    }

    @Test
    void shouldRefuseAServerThatRunsWhereLabYmlDoesNotPutItsAddress() {
        LinkProof.Guard guard = proof.guard("lab", flow(false, false), "client");
        assertThat(guard.refusal())
                .contains(
                        "10.0.0.2 belongs to node server (lab.yml), but node client holds it now",
                        "Put 10.0.0.2 back on server");
        assertNull(proof.guard("lab", flow(false, false), "server").refusal());
    }

    @Test
    void shouldPassAFlowWhoseBytesLeftTheClientsLinkAndFailOneThatWentByLo() {
        LinkProof.Guard guard = proof.guard("lab", flow(false, false), "server");
        assertEquals(1, guard.loadIndex());
        MeasurementOutcome crossed =
                guard.judge(List.of(netDev(0, 0, 1_000), IPERF, netDev(0, 300_000, 12_600_000)), sent(12_000_000));
        assertNull(crossed.error());
        MeasurementOutcome looped =
                guard.judge(List.of(netDev(0, 0, 1_000), IPERF, netDev(13_000_000, 0, 9_000)), sent(12_000_000));
        assertThat(looped.error())
                .contains(
                        "iperf3 reports 12,000,000 bytes",
                        "client's links (eth1) sent only 8,000 bytes",
                        "did not cross the link");
    }

    @Test
    void shouldCountReceivedBytesForAReverseFlow() {
        LinkProof.Guard reverse = proof.guard("lab", flow(true, false), "server");
        assertNull(reverse.judge(List.of(netDev(0, 0, 0), IPERF, netDev(0, 12_500_000, 400_000)), sent(12_000_000))
                .error());
    }

    private static MeasurementOutcome udp(long bytes, double lostPercent) {
        return new MeasurementOutcome(
                Map.of("bytes", new Measure(bytes, Unit.BYTES), "lost_percent", new Measure(lostPercent, Unit.PERCENT)),
                "{}",
                null);
    }

    /** A UDP sender's datagrams that its own qdisc drops never reach the wire: only those that arrived must show. */
    @Test
    void shouldProveAUdpFlowByTheBytesThatArrived() {
        LinkProof.Guard udp = proof.guard("lab", flow(false, true), "server");
        assertEquals(1, udp.loadIndex(), "counters are read around a UDP flow too");
        // 7.5 MB offered, half dropped by the client's own tbf: 3.9 MB on the wire accounts for the half that arrived.
        assertNull(udp.judge(List.of(netDev(0, 0, 0), IPERF, netDev(0, 0, 3_900_000)), udp(7_500_000, 50))
                .error());
        MeasurementOutcome looped =
                udp.judge(List.of(netDev(0, 0, 0), IPERF, netDev(7_600_000, 0, 2_000)), udp(7_500_000, 0));
        assertThat(looped.error())
                .contains("iperf3 reports 7,500,000 bytes arrived", "sent only 2,000 bytes", "did not cross the link");
        LinkProof.Guard reverse = proof.guard("lab", flow(true, true), "server");
        assertThat(reverse.judge(List.of(netDev(0, 0, 0), IPERF, netDev(0, 1_000, 0)), udp(2_000_000, 10))
                        .error())
                .contains("received only 1,000 bytes");
    }
}
