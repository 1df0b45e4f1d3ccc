package dev.tclab.grading.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.tclab.grading.spec.Iperf3Measurement;
import dev.tclab.grading.spec.Measure;
import dev.tclab.grading.spec.Measurement;
import dev.tclab.grading.spec.MeasurementOutcome;
import dev.tclab.grading.spec.PingMeasurement;
import dev.tclab.grading.spec.Unit;
import dev.tclab.lab.TestTopologies;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.topology.Topology;
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
    /** The client's route to the server as an untouched lab gives it (RouteProof's read). */
    private static final ExecResult ROUTED = result("""
            10.0.0.2 dev eth1 src 10.0.0.1 uid 0
                cache
            --- rules
            0:	from all lookup local
            32766:	from all lookup main
            32767:	from all lookup default
            """);

    private static IperfServer.Started at(String node) {
        return new IperfServer.Started(node, 23456, null);
    }

    /** The server node's link counters before the load: nothing yet. */
    private static final List<ExecResult> SERVER_BEFORE = List.of(netDev(0, 0, 0));

    /**
     * What is read on the server node after the flow: the platform's server's own report, counting {@code bytes}
     * (received, or sent for a reverse flow), and its link counters, which carried them and their headers both ways.
     */
    private static List<ExecResult> counted(long bytes) {
        return List.of(
                result("{\"end\": {\"sum_sent\": {\"bytes\": %d}, \"sum_received\": {\"bytes\": %d}}}"
                        .formatted(bytes, bytes)),
                netDev(0, bytes * 21 / 20, bytes * 21 / 20));
    }

    private static List<ExecResult> around(ExecResult before, ExecResult after) {
        return List.of(ROUTED, before, IPERF, after);
    }

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
        LinkProof.Guard guard = proof.guard("lab", flow(false, false), at("client"));
        assertThat(guard.refusal())
                .contains(
                        "10.0.0.2 belongs to node server (lab.yml), but node client holds it now",
                        "Put 10.0.0.2 back on server");
        assertNull(proof.guard("lab", flow(false, false), at("server")).refusal());
    }

    @Test
    void shouldReadAServerReportThatIperf3BeganWithAWarning() {
        // A UML lab's kernel has no IPv6, and iperf3 says so on the stderr its report file shares: every flow but
        // the ones whose server stayed quiet failed "heard from no client" in the app (fair-queueing, in Chromium).
        LinkProof.Guard guard = proof.guard("lab", flow(false, false), at("server"));
        List<ExecResult> warned = List.of(
                result(
                        "warning: this system does not seem to support IPv6 - trying IPv4\n"
                                + "{\"end\": {\"sum_sent\": {\"bytes\": 12000000}, \"sum_received\": {\"bytes\": 12000000}}}\n"),
                netDev(0, 12_600_000, 300_000));
        MeasurementOutcome crossed = guard.judge(
                around(netDev(0, 0, 1_000), netDev(0, 300_000, 12_600_000)), SERVER_BEFORE, warned, sent(12_000_000));
        assertNull(crossed.error());
        List<ExecResult> onlyAWarning =
                List.of(result("warning: this system does not seem to support IPv6 - trying IPv4\n"));
        assertThat(guard.judge(
                                around(netDev(0, 0, 1_000), netDev(0, 300_000, 12_600_000)),
                                SERVER_BEFORE,
                                onlyAWarning,
                                sent(12_000_000))
                        .error())
                .contains("heard from no client");
    }

    @Test
    void shouldPassAFlowWhoseBytesLeftTheClientsLinkAndFailOneThatWentByLo() {
        LinkProof.Guard guard = proof.guard("lab", flow(false, false), at("server"));
        assertEquals(2, guard.loadIndex());
        MeasurementOutcome crossed = guard.judge(
                around(netDev(0, 0, 1_000), netDev(0, 300_000, 12_600_000)),
                SERVER_BEFORE,
                counted(12_000_000),
                sent(12_000_000));
        assertNull(crossed.error());
        MeasurementOutcome looped = guard.judge(
                around(netDev(0, 0, 1_000), netDev(13_000_000, 0, 9_000)),
                SERVER_BEFORE,
                counted(12_000_000),
                sent(12_000_000));
        assertThat(looped.error())
                .contains(
                        "iperf3 reports 12,000,000 bytes",
                        "client's links (eth1) sent only 8,000 bytes",
                        "did not cross the link");
    }

    @Test
    void shouldCountReceivedBytesForAReverseFlow() {
        LinkProof.Guard reverse = proof.guard("lab", flow(true, false), at("server"));
        assertNull(reverse.judge(
                        around(netDev(0, 0, 0), netDev(0, 12_500_000, 400_000)),
                        SERVER_BEFORE,
                        counted(12_100_000),
                        sent(12_000_000))
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
        LinkProof.Guard udp = proof.guard("lab", flow(false, true), at("server"));
        assertEquals(2, udp.loadIndex(), "counters are read around a UDP flow too");
        // 7.5 MB offered, half dropped by the client's own tbf: 3.9 MB on the wire accounts for the half that arrived.
        assertNull(udp.judge(
                        around(netDev(0, 0, 0), netDev(0, 0, 3_900_000)),
                        SERVER_BEFORE,
                        counted(3_750_000),
                        udp(7_500_000, 50))
                .error());
        MeasurementOutcome looped = udp.judge(
                around(netDev(0, 0, 0), netDev(7_600_000, 0, 2_000)),
                SERVER_BEFORE,
                counted(7_500_000),
                udp(7_500_000, 0));
        assertThat(looped.error())
                .contains("iperf3 reports 7,500,000 bytes arrived", "sent only 2,000 bytes", "did not cross the link");
        LinkProof.Guard reverse = proof.guard("lab", flow(true, true), at("server"));
        assertThat(reverse.judge(
                                around(netDev(0, 0, 0), netDev(0, 1_000, 0)),
                                SERVER_BEFORE,
                                counted(2_000_000),
                                udp(2_000_000, 10))
                        .error())
                .contains("received only 1,000 bytes");
    }

    /**
     * Issue 43, row 3: a local route for the server's address on the client, a relay to the learner's own iperf3 and
     * broadcast padding on eth1: the client's counters show the flow, but its route never left the node and the
     * platform's server heard nothing.
     */
    @Test
    void shouldFailAFlowWhoseRouteStaysInTheClientOrWhoseServerHeardNothing() {
        LinkProof.Guard guard = proof.guard("lab", flow(false, false), at("server"));
        ExecResult local = result("""
                local 10.0.0.2 dev lo table local src 10.0.0.1 uid 0
                    cache <local>
                --- rules
                0:	from all lookup local
                32766:	from all lookup main
                32767:	from all lookup default
                """);
        List<ExecResult> padded = List.of(local, netDev(0, 0, 0), IPERF, netDev(12_000_000, 0, 12_600_000));
        assertThat(guard.judge(padded, SERVER_BEFORE, counted(12_000_000), sent(12_000_000))
                        .error())
                .startsWith("Node client has a local route for 10.0.0.2")
                .contains("the replies did not come from the server node", "ip route del local 10.0.0.2 table local");

        List<ExecResult> honestRoute = around(netDev(0, 0, 0), netDev(12_000_000, 0, 12_600_000));
        assertThat(guard.judge(honestRoute, SERVER_BEFORE, List.of(result("")), sent(12_000_000))
                        .error())
                .contains(
                        "The platform's iperf3 server on node server (port 23456) heard from no client",
                        "did not reach the server node");
        assertThat(guard.judge(honestRoute, SERVER_BEFORE, counted(3_000_000), sent(12_000_000))
                        .error())
                .contains("reports 12,000,000 bytes", "on node server counted only 3,000,000 received");
    }

    /**
     * Issue 43, item 4: the server node's links must carry what the platform's server counted, or a process on the
     * server node itself (a relay's far end, a tunnel) made the bytes it heard.
     */
    @Test
    void shouldFailAFlowWhoseServerHeardBytesItsLinksNeverCarried() {
        LinkProof.Guard guard = proof.guard("lab", flow(false, false), at("server"));
        assertEquals(1, guard.onServerBefore().size(), "the server's counters are read before the load");
        assertEquals(2, guard.onServerAfter().size(), "its report, then its counters");
        List<ExecResult> honestRoute = around(netDev(0, 0, 0), netDev(0, 300_000, 12_600_000));
        List<ExecResult> madeOnTheServer = List.of(counted(12_000_000).get(0), netDev(12_600_000, 40_000, 9_000));
        assertThat(guard.judge(honestRoute, SERVER_BEFORE, madeOnTheServer, sent(12_000_000))
                        .error())
                .contains(
                        "iperf3 on node client reports 12,000,000 bytes",
                        "node server's links (eth1) received only 40,000 bytes",
                        "did not all cross the lab's link");

        LinkProof.Guard reverse = proof.guard("lab", flow(true, false), at("server"));
        List<ExecResult> reverseRoute = around(netDev(0, 0, 0), netDev(0, 12_500_000, 400_000));
        assertNull(reverse.judge(reverseRoute, SERVER_BEFORE, counted(12_000_000), sent(12_000_000))
                .error());
        List<ExecResult> sentByLo = List.of(counted(12_000_000).get(0), netDev(12_600_000, 300_000, 5_000));
        assertThat(reverse.judge(reverseRoute, SERVER_BEFORE, sentByLo, sent(12_000_000))
                        .error())
                .contains("node server's links (eth1) sent only 5,000 bytes");

        List<ExecResult> renamed =
                List.of(counted(12_000_000).get(0), result("  lo: 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"));
        assertThat(guard.judge(honestRoute, SERVER_BEFORE, renamed, sent(12_000_000))
                        .error())
                .contains("The flow's server node server lacks one of its lab links (eth1)");
    }

    /** A lesson's self-test lab is no learner's, and its flows are proven all the same while it says so. */
    @Test
    void shouldProveALabItIsToldOfUntilTold() {
        LinkProof noLearnersLabs = new LinkProof(labId -> Optional.empty());
        assertThat(noLearnersLabs.guard("st1", flow(false, false), at("server")).counted())
                .isFalse();
        try (LinkProof.Proving proving = noLearnersLabs.proving("st1", TWO_NODE)) {
            LinkProof.Guard guard = noLearnersLabs.guard("st1", flow(false, false), at("server"));
            assertThat(guard.counted()).isTrue();
            assertThat(guard.serverInterfaces()).containsExactly("eth1");
            assertThat(noLearnersLabs
                            .guard("st2", flow(false, false), at("server"))
                            .counted())
                    .isFalse();
        }
        assertThat(noLearnersLabs.guard("st1", flow(false, false), at("server")).counted())
                .isFalse();
    }

    /** A flow to a server on its own node crosses no link of that node: only the server's report proves it. */
    @Test
    void shouldReadNoServerLinksForAServerOnTheFlowsOwnNode() {
        LinkProof.Guard onItself = proof.guard(
                "lab",
                new Iperf3Measurement.Flow(
                        "",
                        "server",
                        "10.0.0.2",
                        null,
                        1,
                        false,
                        false,
                        null,
                        null,
                        Iperf3Measurement.Congestion.CUBIC),
                at("server"));
        assertThat(onItself.onServerBefore()).isEmpty();
        assertEquals(1, onItself.onServerAfter().size());
    }

    private static String snmp(long outEchoReps) {
        return "Ip: Forwarding DefaultTTL\nIp: 1 64\n"
                + "Icmp: InMsgs InErrors InCsumErrors InDestUnreachs InTimeExcds InParmProbs InSrcQuenchs InRedirects"
                + " InEchos InEchoReps InTimestamps InTimestampReps InAddrMasks InAddrMaskReps OutMsgs OutErrors"
                + " OutRateLimitGlobal OutRateLimitHost OutDestUnreachs OutTimeExcds OutParmProbs OutSrcQuenchs"
                + " OutRedirects OutEchos OutEchoReps OutTimestamps\n"
                + "Icmp: 40 0 0 0 0 0 0 0 20 0 0 0 0 0 20 0 0 0 0 0 0 0 0 0 " + outEchoReps + " 0\n";
    }

    private static final PingMeasurement PING =
            new PingMeasurement(new Measurement.Common("lat", "client", null, null), "10.0.0.2", 5, 0.2);

    private static final ExecResult PINGED = result("""
            PING 10.0.0.2 (10.0.0.2) 56(84) bytes of data.

            --- 10.0.0.2 ping statistics ---
            5 packets transmitted, 5 received, 0% packet loss, time 801ms
            rtt min/avg/max/mdev = 0.040/0.050/0.060/0.008 ms
            """);

    /**
     * Issue 43, row 4: a ping's replies must have been sent by the node lab.yml gives its target to, whatever the
     * client's route says (the gw could answer the server's address itself).
     */
    @Test
    void shouldFailAPingWhoseTargetsNodeSentFewerRepliesThanItGot() {
        assertEquals(Optional.of("server"), proof.echoesOf("lab", PING));
        assertEquals(25, LinkProof.echoReplies(snmp(25)));
        assertNull(
                proof.read("lab", PING, List.of(ROUTED, PINGED), List.of(result(snmp(100))), List.of(result(snmp(105))))
                        .error());
        assertThat(proof.read(
                                "lab",
                                PING,
                                List.of(ROUTED, PINGED),
                                List.of(result(snmp(100))),
                                List.of(result(snmp(100))))
                        .error())
                .contains(
                        "Node client's ping got 5 replies from 10.0.0.2, but node server, which lab.yml gives 10.0.0.2 to,"
                                + " sent only 0",
                        "the replies did not come from the server node");
    }
}
