package dev.tclab.grading;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EvaluatorTest {

    private static final String FILE = "steps/02-shape.md";

    private final Values values = new Values(Map.of(
            "up", Map.of("mbps", new Measure(9.61, Unit.MBIT_PER_S)),
            "lat", Map.of("avg_ms", new Measure(12.5, Unit.MS)),
            "q", Map.of("root", Map.of("kind", "tbf", "options", Map.of("rate", new Measure(1_250_000, Unit.BYTE_PER_S))))),
            Map.of("loaded_ping", new Measure(616, Unit.MS)),
            Map.of());

    private List<AssertionResult> evaluate(String expect) throws CheckSpecException {
        String yaml = """
                measure:
                  - { name: up, node: client, iperf3: { server: 10.0.0.2, seconds: 5 } }
                  - { name: lat, node: client, ping: { target: 10.0.0.2, count: 10, interval: 0.2 }, during: up }
                  - { name: q, node: client, qdisc: { dev: eth1 } }
                expect:
                """ + expect;
        return Evaluator.evaluate(CheckSpecParser.parse(FILE, yaml, 1).expect(), values);
    }

    @Test
    void shouldPassNearWithinPercentAndExplainIt() throws Exception {
        AssertionResult r = evaluate("  - { value: up.mbps, near: 10mbit, within: 5% }\n").get(0);
        assertTrue(r.passed());
        assertEquals("9.61 Mbit/s", r.measured());
        assertEquals(9.61, r.number());
        assertEquals("about 10mbit (± 5 %)", r.expected());
        assertFalse(evaluate("  - { value: up.mbps, near: 10mbit, within: 3% }\n").get(0).passed());
    }

    @Test
    void shouldAcceptAbsoluteToleranceInAnotherUnitOfTheSameDimension() throws Exception {
        assertTrue(evaluate("  - { value: up.mbps, near: 10000kbit, within: 500kbit }\n").get(0).passed());
        assertFalse(evaluate("  - { value: up.mbps, near: 10mbit, within: 300kbit }\n").get(0).passed());
    }

    @Test
    void shouldCompareTcJsonRatesInBytesPerSecondWithBitRates() throws Exception {
        assertTrue(evaluate("  - { value: q.root.options.rate, equals: 10mbit }\n").get(0).passed());
        assertTrue(evaluate("  - { value: q.root.options.rate, between: [9mbit, 11mbit] }\n").get(0).passed());
        assertTrue(evaluate("  - { value: q.root.kind, equals: tbf }\n").get(0).passed());
        assertFalse(evaluate("  - { value: q.root.kind, equals: cake }\n").get(0).passed());
    }

    @Test
    void shouldCheckBoundsWithTimeUnits() throws Exception {
        assertTrue(evaluate("  - { value: lat.avg_ms, below: 50ms }\n").get(0).passed());
        assertFalse(evaluate("  - { value: lat.avg_ms, below: 10ms }\n").get(0).passed());
        assertTrue(evaluate("  - { value: lat.avg_ms, above: 10000us, below: 0.02s }\n").get(0).passed());
    }

    @Test
    void shouldDivideByRecordedBaseline() throws Exception {
        AssertionResult r = evaluate("  - { value: lat.avg_ms, ratio_to: baseline.loaded_ping, below: 0.1 }\n").get(0);
        assertTrue(r.passed(), r.message());
        assertEquals(12.5 / 616, r.number(), 1e-9);
        assertTrue(r.measured().contains("of 616 ms"), r.measured());
        assertFalse(evaluate("  - { value: lat.avg_ms, ratio_to: baseline.loaded_ping, below: 0.01 }\n").get(0).passed());
    }

    @Test
    void shouldFailWithGuidanceWhenBaselineWasNeverRecorded() throws Exception {
        AssertionResult r = evaluate("  - { value: lat.avg_ms, ratio_to: baseline.idle_ping, below: 0.1 }\n").get(0);
        assertFalse(r.passed());
        assertTrue(r.message().contains("run the earlier step's check first"), r.message());
    }

    @Test
    void shouldFillMessageTemplate() throws Exception {
        AssertionResult r = evaluate("  - value: up.mbps\n    near: 20mbit\n    within: 10%\n"
                + "    message: \"measured {value} {unit}, expected {expected}\"\n").get(0);
        assertFalse(r.passed());
        assertEquals("measured 9.61 Mbit/s, expected about 20mbit (± 10 %)", r.message());
    }

    @Test
    void shouldCombineWithAnyOfAndAllOf() throws Exception {
        String anyOf = "  - any_of:\n      - { value: q.root.kind, equals: cake }\n      - { value: q.root.kind, equals: tbf }\n";
        AssertionResult any = evaluate(anyOf).get(0);
        assertTrue(any.passed());
        assertEquals(2, any.children().size());
        String allOf = "  - all_of:\n      - { value: q.root.kind, equals: tbf }\n      - { value: up.mbps, above: 50mbit }\n";
        assertFalse(evaluate(allOf).get(0).passed());
    }

    @Test
    void shouldFailMissingValueWithMeasurementError() throws Exception {
        Values failed = new Values(Map.of("up", Map.of("error", "unable to connect to server: Connection refused")),
                Map.of(), Map.of("up", "iperf3 reported: unable to connect to server: Connection refused"));
        String yaml = "measure:\n  - { name: up, node: client, iperf3: { server: 10.0.0.2 } }\nexpect:\n"
                + "  - { value: up.mbps, above: 1mbit }\n";
        AssertionResult r = Evaluator.evaluate(CheckSpecParser.parse(FILE, yaml, 1).expect(), failed).get(0);
        assertFalse(r.passed());
        assertTrue(r.message().contains("Connection refused"), r.message());
    }
}
