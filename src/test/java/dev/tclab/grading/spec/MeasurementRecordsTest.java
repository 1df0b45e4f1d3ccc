package dev.tclab.grading.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tclab.grading.evaluate.Values;
import dev.tclab.runtime.ExecResult;
import dev.tclab.tc.Fixtures;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each measurement record: its options become its command line, its output becomes its result with units. */
class MeasurementRecordsTest {

    private static Measurement only(String measure) throws CheckSpecException {
        return CheckSpecParser.parse("f.md", "measure:\n  - " + measure + "\n", 1)
                .measurements()
                .get(0);
    }

    private static List<String> problems(String yaml) {
        try {
            CheckSpecParser.parse("f.md", yaml, 1);
            throw new AssertionError("expected problems in " + yaml);
        } catch (CheckSpecException e) {
            return e.problems().stream()
                    .map(p -> p.line() + " " + p.field() + ": " + p.message())
                    .toList();
        }
    }

    private static ExecResult ok(String stdout) {
        return new ExecResult(0, stdout, "", false);
    }

    @Test
    void shouldRunOneIperf3FlowAgainstItsServerPortWithTheDocumentedOptions() throws Exception {
        Iperf3Measurement m = (Iperf3Measurement)
                only(
                        "{ name: up, node: client, iperf3: { server: 10.0.0.2, seconds: 7, reverse: true, parallel: 2, dscp: AF41 } }");
        assertEquals(1, m.flows().size());
        assertEquals(
                List.of(
                        "iperf3",
                        "-c",
                        "10.0.0.2",
                        "-J",
                        "-C",
                        "cubic",
                        "-t",
                        "7",
                        "-p",
                        "20001",
                        "-P",
                        "2",
                        "-R",
                        "-S",
                        "136"),
                m.flows().get(0).argv(m.seconds(), 20001),
                "AF41 is DSCP 34, TOS byte 136");
        assertEquals(Duration.ofSeconds(22), m.timeout());
        assertEquals(1, m.slots());
        assertTrue(m.load());
    }

    @Test
    void shouldSetTheCongestionControlAFlowAsksForAndCubicOtherwise() throws Exception {
        Iperf3Measurement m = (Iperf3Measurement) only("""
                name: share
                    node: client
                    iperf3:
                      server: 10.0.0.2
                      congestion: reno
                      flows:
                        a: {}
                        b: { congestion: cubic }
                """);
        assertThat(m.flows().get(0).argv(5, 20001)).containsSubsequence("-C", "reno");
        assertThat(m.flows().get(1).argv(5, 20002)).containsSubsequence("-C", "cubic");
        Iperf3Measurement plain = (Iperf3Measurement) only("{ name: up, node: client, iperf3: { server: 10.0.0.2 } }");
        assertEquals(Iperf3Measurement.Congestion.CUBIC, plain.flows().get(0).congestion());
        assertThat(problems("""
                        measure:
                          - { name: up, node: c, iperf3: { server: 10.0.0.2, congestion: vegas } }
                        """))
                .singleElement()
                .isEqualTo("2 measure[0].iperf3.congestion: expected one of cubic, reno, found 'vegas'");
    }

    @Test
    void shouldGiveEachNamedFlowItsOwnOptionsAndInheritTheRest() throws Exception {
        Iperf3Measurement m = (Iperf3Measurement) only("""
                name: share
                    node: client
                    iperf3:
                      server: 10.0.0.2
                      seconds: 6
                      flows:
                        a: { port: 5001, tos: 0x10 }
                        b: { port: 5002, udp: true, bitrate: 3mbit, server: 10.0.0.3 }
                """);
        assertEquals(
                List.of("a", "b"),
                m.flows().stream().map(Iperf3Measurement.Flow::name).toList());
        assertEquals(
                List.of("iperf3", "-c", "10.0.0.2", "-J", "-C", "cubic", "-t", "6", "-p", "5001", "-S", "16"),
                m.flows().get(0).argv(6, m.flows().get(0).port()));
        assertEquals(
                List.of(
                        "iperf3",
                        "-c",
                        "10.0.0.3",
                        "-J",
                        "-C",
                        "cubic",
                        "-t",
                        "6",
                        "-p",
                        "5002",
                        "-u",
                        "-b",
                        "3000000"),
                m.flows().get(1).argv(6, m.flows().get(1).port()));
        assertEquals(2, m.slots(), "every flow takes a measurement slot");
    }

    @Test
    void shouldSumFlowsAtTheTopAndKeepEachUnderFlows() throws Exception {
        Iperf3Measurement m = (Iperf3Measurement)
                only("{ name: share, node: client, iperf3: { server: 10.0.0.2, flows: { a: {}, b: {} } } }");
        MeasurementOutcome a = m.read(ok(Fixtures.read("iperf3/iperf3-tcp-tbf10.json")));
        MeasurementOutcome b = m.read(ok(Fixtures.read("iperf3/iperf3-tcp-tbf10.json")));
        MeasurementOutcome both = m.combine(new java.util.LinkedHashMap<>(Map.of("a", a)) {
            {
                put("b", b);
            }
        });
        assertNull(both.error());
        Values values = new Values(Map.of("share", both.values()), Map.of(), Map.of());
        Measure flowA = (Measure)
                values.get(ValuePath.parse("share.flows.a.mbps").orElseThrow()).orElseThrow();
        Measure total = (Measure)
                values.get(ValuePath.parse("share.mbps").orElseThrow()).orElseThrow();
        assertEquals(9.64, flowA.value(), 0.01);
        assertEquals(2 * flowA.value(), total.value(), 1e-9);
        assertThat(both.raw()).contains("[flow a]").contains("[flow b]");
    }

    @Test
    void shouldFailTheMeasurementNamingTheFlowThatFailed() throws Exception {
        Iperf3Measurement m = (Iperf3Measurement)
                only("{ name: share, node: client, iperf3: { server: 10.0.0.2, flows: { a: {}, b: {} } } }");
        MeasurementOutcome a = m.read(ok(Fixtures.read("iperf3/iperf3-tcp-tbf10.json")));
        MeasurementOutcome b = m.read(ok(Fixtures.read("iperf3/iperf3-error-refused.json")));
        MeasurementOutcome both = m.combine(new java.util.LinkedHashMap<>(Map.of("a", a)) {
            {
                put("b", b);
            }
        });
        assertThat(both.error()).startsWith("flow b: iperf3 reported: ");
    }

    @Test
    void shouldPingWithADeadlineAndReadItsTimes() throws Exception {
        PingMeasurement m = (PingMeasurement)
                only("{ name: lat, node: client, ping: { target: 10.0.0.2, count: 20, interval: 0.25 } }");
        assertEquals(List.of("ping", "-q", "-c", "20", "-i", "0.25", "-w", "7", "10.0.0.2"), m.argv());
        assertEquals(Duration.ofSeconds(15), m.timeout());
        Map<String, Object> tree =
                m.read(ok(Fixtures.read("ping/ping-iputils.txt"))).values();
        assertEquals(Unit.MS, ((Measure) tree.get("avg_ms")).unit());
    }

    @Test
    void shouldReadTcCommandsForQdiscsClassesAndFilters() throws Exception {
        assertEquals(
                List.of("tc", "-s", "-j", "qdisc", "show"),
                only("{ name: q, node: c, qdisc: }").argv());
        assertEquals(
                List.of("tc", "-s", "class", "show", "dev", "eth1"),
                only("{ name: c, node: c, classes: { dev: eth1 } }").argv());
        assertEquals(
                List.of("tc", "-s", "filter", "show", "dev", "eth1", "parent", "ffff:"),
                only("{ name: f, node: c, filters: { dev: eth1, parent: \"ffff:\" } }")
                        .argv());
        MeasurementOutcome refused = only("{ name: c, node: c, classes: { dev: eth9 } }")
                .read(new ExecResult(1, "", "Cannot find device \"eth9\"\n", false));
        assertEquals("tc failed: Cannot find device \"eth9\"", refused.error());
    }

    @Test
    void shouldReadInterfaceCountersFromIpJson() throws Exception {
        Measurement m = only("{ name: link, node: c, interfaces: { dev: eth1 } }");
        assertEquals(List.of("ip", "-s", "-j", "link", "show", "dev", "eth1"), m.argv());
        Map<String, Object> tree = m.read(ok("""
                [{"ifname":"eth1","mtu":1500,"qdisc":"htb","operstate":"UP","stats64":{"rx":{"bytes":100,"packets":2,
                "errors":0,"dropped":0},"tx":{"bytes":3000,"packets":4,"errors":0,"dropped":1}}}]""")).values();
        Values values = new Values(Map.of("link", tree), Map.of(), Map.of());
        assertEquals(
                new Measure(3000, Unit.BYTES),
                values.get(ValuePath.parse("link.by_dev[eth1].tx_bytes").orElseThrow())
                        .orElseThrow());
        assertEquals(
                new Measure(1, Unit.NONE),
                values.get(ValuePath.parse("link.by_dev[eth1].tx_dropped").orElseThrow())
                        .orElseThrow());
    }

    @Test
    void shouldGiveCountersADeltaAndPerSecondRatesOverALoad() throws Exception {
        Measurement m = only("{ name: c, node: c, classes: { dev: eth1 } }");
        Map<String, Object> before =
                m.read(ok(Fixtures.read("tc/class-htb.txt"))).values();
        Map<String, Object> after = m.read(ok(Fixtures.read("tc/class-htb.txt")
                        .replace("Sent 22799529 bytes 15076 pkt", "Sent 23799529 bytes 16076 pkt")
                        .replace("lended: 253 borrowed: 254", "lended: 253 borrowed: 354")))
                .values();
        Values values = new Values(Map.of("c", Counters.over(before, after, 4)), Map.of(), Map.of());
        assertEquals(new Measure(1_000_000, Unit.BYTES), get(values, "c.by_id[1:10].delta.bytes"));
        assertEquals(new Measure(100, Unit.NONE), get(values, "c.by_id[1:10].delta.borrowed"));
        assertEquals(new Measure(2_000_000, Unit.BIT_PER_S), get(values, "c.by_id[1:10].per_second.bits"));
        assertEquals(new Measure(250, Unit.NONE), get(values, "c.by_id[1:10].per_second.packets"));
        assertEquals(new Measure(0, Unit.BYTES), get(values, "c.by_id[1:20].delta.bytes"));
        assertEquals(new Measure(4, Unit.S), get(values, "c.window_seconds"));
        assertEquals(
                get(values, "c.by_id[1:10].delta.bytes"), get(values, "c.all[0].delta.bytes"), "one entry, two ways");
    }

    @Test
    void shouldCountAClassCreatedOrReplacedDuringTheLoadFromZero() throws Exception {
        Measurement m = only("{ name: c, node: c, classes: { dev: eth1 } }");
        Map<String, Object> after =
                m.read(ok(Fixtures.read("tc/class-htb.txt"))).values();
        Values values = new Values(Map.of("c", Counters.over(Map.of(), after, 1)), Map.of(), Map.of());
        assertEquals(new Measure(22799529, Unit.BYTES), get(values, "c.by_id[1:10].delta.bytes"));
    }

    private static Object get(Values values, String path) {
        return values.get(ValuePath.parse(path).orElseThrow()).orElseThrow(() -> new AssertionError("no " + path));
    }

    @Test
    void shouldValidateFlowsOverAndDeltaPathsBeforeAnyRun() {
        List<String> lines = problems("""
                measure:
                  - { name: up, node: c, iperf3: { server: 10.0.0.2, seconds: 6, flows: { a: {}, b: { dscp: XY } } } }
                  - { name: c, node: c, classes: { dev: eth1 }, over: up }
                  - { name: q, node: c, qdisc: { dev: eth1 } }
                  - { name: p, node: c, ping: { target: 10.0.0.2 }, over: up }
                expect:
                  - { value: up.flows.z.mbps, above: 1mbit }
                  - { value: q.root.delta.bytes, above: 1kb }
                  - { value: "c.by_id[1:10].per_second.bits", near: 3mbit, within: 10% }
                  - { value: "c.by_id[1:10].delta.packets", above: 1mbit }
                """);
        assertThat(lines)
                .contains(
                        "2 measure[0].iperf3.flows.b.dscp: 'XY' is not a DSCP: a number 0-63, EF, AFxy (AF11-AF43) or CSx (CS0-CS7)",
                        "5 measure[3].over: 'over' reads counters before and after a load: it applies to qdisc, classes and interfaces measurements, not ping",
                        "8 expect[1].value: 'q.root.delta.bytes' is read over a load: add 'over: <load>' to 'q' so its counters are read before and after it");
        assertThat(lines)
                .anyMatch(l -> l.startsWith("10 expect[3].above: '1mbit' is a rate")
                        && l.contains("but the value is a plain number"));
        assertThat(lines).noneMatch(l -> l.startsWith("9 "));
        assertThat(lines).hasSize(5);
        assertThat(lines).anyMatch(l -> l.startsWith("7 expect[0].value: 'up' has the flows a, b; found 'z'"));
    }

    @Test
    void shouldReportTwoLoadsAtOnceAndSharedPortsWithTheFixToUseFlows() {
        List<String> lines = problems("""
                measure:
                  - { name: up, node: c, iperf3: { server: 10.0.0.2, flows: { a: { port: 5001 }, b: { port: 5001 } } } }
                  - { name: up2, node: c, iperf3: { server: 10.0.0.2 }, during: up }
                """);
        assertThat(lines).anyMatch(l -> l.startsWith("2 measure[0].iperf3.flows: two flows name the same port"));
        assertThat(lines).anyMatch(l -> l.contains("give one iperf3 measurement several flows"));
    }

    @Test
    void shouldListTheNewKindWhenAMeasurementHasNone() {
        List<String> lines = problems("measure: [ { name: x, node: c } ]\n");
        assertThat(lines)
                .anyMatch(l -> l.equals(
                        "1 measure[0]: needs one of iperf3, ping, qdisc, classes, filters, interfaces or command"));
    }
}
