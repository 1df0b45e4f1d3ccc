package dev.tclab.grading.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.grading.evaluate.FlowMiss;
import dev.tclab.grading.evaluate.FlowRoute;
import dev.tclab.grading.spec.Iperf3Measurement;
import dev.tclab.grading.spec.Measure;
import dev.tclab.grading.spec.MeasurementOutcome;
import dev.tclab.grading.spec.Unit;
import dev.tclab.runtime.ExecResult;
import dev.tclab.tc.Fixtures;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where a flow went, from captured tc outputs read before and after it (FlowTrace). */
class FlowTraceTest {

    private static final Iperf3Measurement.Flow UPLOAD = new Iperf3Measurement.Flow(
            "", "client", "10.0.0.2", null, 1, false, false, null, null, Iperf3Measurement.Congestion.CUBIC);

    /** tc's JSON of every device names each qdisc's device; the fixture was read with {@code dev eth1}. */
    private static final String QDISCS_AFTER =
            Fixtures.read("tc/qdisc-htb.json").replace("\"handle\":", "\"dev\":\"eth1\",\"handle\":");

    private static final String CLASSES_BEFORE = """
            @@tclab-dev lo
            @@tclab-dev eth1
            class htb 1:10 parent 1:1 prio 1 rate 48Mbit ceil 90Mbit burst 1590b cburst 1586b
             Sent 1000 bytes 10 pkt (dropped 0, overlimits 0 requeues 0)
             backlog 0b 0p requeues 0
             lended: 0 borrowed: 0 giants: 0
             tokens: 3984 ctokens: 2126

            class htb 1:1 root rate 90Mbit ceil 90Mbit burst 1586b cburst 1586b
             Sent 1000 bytes 10 pkt (dropped 0, overlimits 0 requeues 0)
             backlog 0b 0p requeues 0
             lended: 0 borrowed: 0 giants: 0
             tokens: 2081 ctokens: 2081

            class htb 1:20 parent 1:1 leaf 20: prio 0 rate 10Mbit ceil 10Mbit burst 1600b cburst 1600b
             Sent 294 bytes 3 pkt (dropped 0, overlimits 0 requeues 0)
             backlog 0b 0p requeues 0
             lended: 3 borrowed: 0 giants: 0
             tokens: 18775 ctokens: 18775
            """;

    @Test
    void shouldKeepTheQdiscsAndClassesWhoseBytesRoseByAboutTheFlowsBytes() {
        FlowTrace trace = FlowTrace.of(UPLOAD);
        assertThat(trace.readsOnClient()).hasSize(1);
        assertThat(trace.readsOnServer()).isEmpty();
        List<ExecResult> before = List.of(ok("@@tclab-qdiscs\n"
                + QDISCS_AFTER.replace("\"bytes\":22799823", "\"bytes\":1000") + "\n" + CLASSES_BEFORE));
        List<ExecResult> after = List.of(ok("@@tclab-qdiscs\n" + QDISCS_AFTER + "\n@@tclab-dev lo\n@@tclab-dev eth1\n"
                + Fixtures.read("tc/class-htb.txt")));
        MeasurementOutcome flow =
                new MeasurementOutcome(Map.of("bytes", new Measure(22_000_000, Unit.BYTES)), "", null);

        FlowRoute route = trace.route(
                        "up",
                        UPLOAD,
                        "server",
                        24817,
                        before,
                        after,
                        ok(Fixtures.read("iperf3/iperf3-tcp-tbf10.json")),
                        flow)
                .orElseThrow();

        assertThat(route.counted())
                .extracting(c -> c.what() + " " + c.id() + " +" + c.bytes())
                .containsExactly("qdisc 1: +22798823", "class 1:10 +22798529", "class 1:1 +22798823");
        assertThat(route.leafClassesOn("eth1"))
                .extracting(FlowRoute.Counted::id)
                .containsExactly("1:10");
        assertThat(route.clientPort()).isEqualTo(57606);
        assertThat(route.protocol()).isEqualTo("tcp");
        assertThat(route.serverPort()).isEqualTo(24817);
        assertThat(route.node()).isEqualTo("client");
        assertThat(route.reverse()).isFalse();
    }

    @Test
    void shouldFindHtbsDefaultClassFromItsHexMinor() throws Exception {
        assertThat(FlowTrace.defaultClasses(dev.tclab.tc.QdiscParser.parseJson(QDISCS_AFTER)))
                .containsExactly("1:20");
    }

    @Test
    void shouldTraceAReverseFlowOnTheServersNodeWhichSendsIt() {
        Iperf3Measurement.Flow download = new Iperf3Measurement.Flow(
                "", "client", "10.0.0.2", null, 1, true, false, null, null, Iperf3Measurement.Congestion.CUBIC);
        FlowTrace trace = FlowTrace.of(download);
        assertThat(trace.readsOnClient()).isEmpty();
        assertThat(trace.readsOnServer()).hasSize(1);
        List<ExecResult> before = List.of(ok("@@tclab-qdiscs\n"
                + QDISCS_AFTER.replace("\"bytes\":22799823", "\"bytes\":1000") + "\n" + CLASSES_BEFORE));
        List<ExecResult> after = List.of(
                ok("@@tclab-qdiscs\n" + QDISCS_AFTER + "\n@@tclab-dev eth1\n" + Fixtures.read("tc/class-htb.txt")));
        MeasurementOutcome flow =
                new MeasurementOutcome(Map.of("bytes", new Measure(22_000_000, Unit.BYTES)), "", null);

        FlowRoute route = trace.route("down", download, "server", 24817, before, after, ok("{}"), flow)
                .orElseThrow();

        assertThat(route.node()).isEqualTo("server");
        assertThat(route.reverse()).isTrue();
        assertThat(route.leafClassesOn("eth1"))
                .extracting(FlowRoute.Counted::id)
                .containsExactly("1:10");
        assertThat(trace.route("down", download, "server", 24817, List.of(), List.of(), ok("{}"), flow))
                .as("no read on the server (it could not run): no route, and no failure")
                .isEmpty();
    }

    @Test
    void shouldSayWhereTheFlowWentInOneSentence() {
        assertThat(new FlowMiss("up", "", "tcp", 24817, false, 0, "eth1", "1:20", true, "1:10").sentence())
                .isEqualTo("Your flow went through class 1:20 (the default), not 1:10: no filter matched its TCP"
                        + " packets to destination port 24817.");
        assertThat(new FlowMiss("share", "a", "udp", 5002, false, 0x10, "eth1", "1:30", false, "1:10").sentence())
                .isEqualTo("Your flow a went through class 1:30, not 1:10 (a filter sent its UDP packets to"
                        + " destination port 5002 with TOS 0x10 there).");
        assertThat(new FlowMiss("down", "", "tcp", 24817, true, 0, "eth1", "1:20", true, "1:10").sentence())
                .isEqualTo("Your flow went through class 1:20 (the default), not 1:10: no filter matched its TCP"
                        + " packets from source port 24817.");
    }

    private static ExecResult ok(String stdout) {
        return new ExecResult(0, stdout, "", false);
    }
}
