package dev.tclab.grading.evaluate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tclab.grading.spec.CheckSpecException;
import dev.tclab.grading.spec.CheckSpecParser;
import dev.tclab.grading.spec.Measure;
import dev.tclab.grading.spec.Unit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EvaluatorTest {

    private static final String FILE = "steps/02-shape.md";

    private final Values values = new Values(
            Map.of(
                    "up", Map.of("mbps", new Measure(9.61, Unit.MBIT_PER_S)),
                    "lat", Map.of("avg_ms", new Measure(12.5, Unit.MS)),
                    "q",
                            Map.of(
                                    "root",
                                    Map.of(
                                            "kind",
                                            "tbf",
                                            "options",
                                            Map.of("rate", new Measure(1_250_000, Unit.BYTE_PER_S))))),
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
        AssertionResult r =
                evaluate("  - { value: up.mbps, near: 10mbit, within: 5% }\n").get(0);
        assertTrue(r.passed());
        assertEquals("9.61 Mbit/s", r.measured());
        assertEquals(9.61, r.number());
        assertEquals("about 10mbit (± 5 %)", r.expected());
        assertFalse(evaluate("  - { value: up.mbps, near: 10mbit, within: 3% }\n")
                .get(0)
                .passed());
    }

    @Test
    void shouldAcceptAbsoluteToleranceInAnotherUnitOfTheSameDimension() throws Exception {
        assertTrue(evaluate("  - { value: up.mbps, near: 10000kbit, within: 500kbit }\n")
                .get(0)
                .passed());
        assertFalse(evaluate("  - { value: up.mbps, near: 10mbit, within: 300kbit }\n")
                .get(0)
                .passed());
    }

    @Test
    void shouldCompareTcJsonRatesInBytesPerSecondWithBitRates() throws Exception {
        assertTrue(evaluate("  - { value: q.root.options.rate, equals: 10mbit }\n")
                .get(0)
                .passed());
        assertTrue(evaluate("  - { value: q.root.options.rate, between: [9mbit, 11mbit] }\n")
                .get(0)
                .passed());
        assertTrue(evaluate("  - { value: q.root.kind, equals: tbf }\n").get(0).passed());
        assertFalse(
                evaluate("  - { value: q.root.kind, equals: cake }\n").get(0).passed());
    }

    @Test
    void shouldCheckBoundsWithTimeUnits() throws Exception {
        assertTrue(evaluate("  - { value: lat.avg_ms, below: 50ms }\n").get(0).passed());
        assertFalse(evaluate("  - { value: lat.avg_ms, below: 10ms }\n").get(0).passed());
        assertTrue(evaluate("  - { value: lat.avg_ms, above: 10000us, below: 0.02s }\n")
                .get(0)
                .passed());
    }

    @Test
    void shouldDivideByRecordedBaseline() throws Exception {
        AssertionResult r = evaluate("  - { value: lat.avg_ms, ratio_to: baseline.loaded_ping, below: 0.1 }\n")
                .get(0);
        assertTrue(r.passed(), r.message());
        assertEquals(12.5 / 616, r.ratio(), 1e-9);
        assertEquals(12.5, r.number());
        assertEquals("ms", r.unit());
        assertEquals("12.5 ms = 0.0203 × 616 ms (baseline.loaded_ping)", r.measured());
        assertFalse(evaluate("  - { value: lat.avg_ms, ratio_to: baseline.loaded_ping, below: 0.01 }\n")
                .get(0)
                .passed());
    }

    @Test
    void shouldFillRatioMessagesWithTheMeasuredValueAndTheBaselineInItsUnit() throws Exception {
        // tbf-basics step 5 with the server limited to 40 kbit, against a baseline recorded in bit/s.
        Values slow = new Values(
                Map.of("up", Map.of("mbps", new Measure(0.0382, Unit.MBIT_PER_S))),
                Map.of("native_mbps", new Measure(35_887_800_000.0, Unit.BIT_PER_S)),
                Map.of());
        String yaml = "measure:\n  - { name: up, node: client, iperf3: { server: 10.0.0.2 } }\nexpect:\n"
                + "  - value: up.mbps\n    ratio_to: baseline.native_mbps\n    above: 0.05\n"
                + "    message: \"measured {value} {unit}, against {baseline} {unit} in step 1 ({ratio} of it)\"\n";
        AssertionResult r = Evaluator.evaluate(
                        CheckSpecParser.parse(FILE, yaml, 1).expect(), slow)
                .get(0);
        assertFalse(r.passed());
        assertEquals("measured 0.0382 Mbit/s, against 35888 Mbit/s in step 1 (0.00000106 of it)", r.message());
    }

    @Test
    void shouldNotFillTheAuthorsMessageWithAnError() throws Exception {
        AssertionResult r = evaluate("  - value: lat.avg_ms\n    ratio_to: baseline.idle_ping\n    below: 0.1\n"
                        + "    message: \"the loaded ping is {value} ms against {baseline} ms before\"\n")
                .get(0);
        assertFalse(r.passed());
        assertEquals(
                "lat.avg_ms: no baseline.idle_ping recorded in this lab; expected a ratio to baseline.idle_ping "
                        + "below 0.1",
                r.message());
    }

    @Test
    void shouldShowTheMeasuredValueInTheExpectationsUnit() throws Exception {
        AssertionResult rate = evaluate(
                        "  - { value: q.root.options.rate, equals: 10mbit, message: \"{value} {unit}\" }\n")
                .get(0);
        assertEquals("10 Mbit/s", rate.measured());
        assertEquals(10.0, rate.number(), 1e-12);
        assertEquals("Mbit/s", rate.unit());
        assertEquals("10 Mbit/s", rate.message());
        assertEquals(
                "9610 kbit/s",
                evaluate("  - { value: up.mbps, above: 1000kbit }\n").get(0).measured());
        assertEquals(
                "12.5 ms",
                evaluate("  - { value: lat.avg_ms, below: 50 }\n").get(0).measured());
        assertEquals(
                "0.0125 s",
                evaluate("  - { value: lat.avg_ms, below: 1s }\n").get(0).measured());
    }

    @Test
    void shouldNameTcsBinarySizesInAMessageAsALearnerReadsThem() throws Exception {
        // The troubleshooting lesson's class counter said "carried 0 mb" on a learner's page.
        Values none = new Values(
                Map.of("q", Map.of("root", Map.of("bytes", new Measure(0, Unit.BYTES)))), Map.of(), Map.of());
        String yaml = "measure:\n  - { name: q, node: client, qdisc: { dev: eth1 } }\nexpect:\n"
                + "  - { value: q.root.bytes, above: 3mb, message: \"class 1:10 carried {value} {unit}\" }\n";
        AssertionResult r = Evaluator.evaluate(
                        CheckSpecParser.parse(FILE, yaml, 1).expect(), none)
                .get(0);
        assertFalse(r.passed());
        assertEquals("class 1:10 carried 0 MiB", r.message());
    }

    @Test
    void shouldShowEveryDigitOfANumberThatIsNotEqualToTheExpectedOne() throws Exception {
        Values typo = new Values(
                Map.of("q", Map.of("root", Map.of("options", Map.of("rate", new Measure(1_250_125, Unit.BYTE_PER_S))))),
                Map.of(),
                Map.of());
        String yaml = "measure:\n  - { name: q, node: client, qdisc: { dev: eth1 } }\nexpect:\n"
                + "  - { value: q.root.options.rate, equals: 10mbit }\n";
        AssertionResult r = Evaluator.evaluate(
                        CheckSpecParser.parse(FILE, yaml, 1).expect(), typo)
                .get(0);
        assertFalse(r.passed());
        assertEquals("10.001 Mbit/s", r.measured());
        assertEquals("q.root.options.rate is 10.001 Mbit/s; expected equal to 10mbit", r.message());
    }

    @Test
    void shouldFillMessageTemplate() throws Exception {
        AssertionResult r = evaluate("  - value: up.mbps\n    near: 20mbit\n    within: 10%\n"
                        + "    message: \"measured {value} {unit}, expected {expected}\"\n")
                .get(0);
        assertFalse(r.passed());
        assertEquals("measured 9.61 Mbit/s, expected about 20mbit (± 10 %)", r.message());
    }

    @Test
    void shouldCombineWithAnyOfAndAllOf() throws Exception {
        String anyOf =
                "  - any_of:\n      - { value: q.root.kind, equals: cake }\n      - { value: q.root.kind, equals: tbf }\n";
        AssertionResult any = evaluate(anyOf).get(0);
        assertTrue(any.passed());
        assertEquals(2, any.children().size());
        String allOf =
                "  - all_of:\n      - { value: q.root.kind, equals: tbf }\n      - { value: up.mbps, above: 50mbit }\n";
        assertFalse(evaluate(allOf).get(0).passed());
    }

    /**
     * A failed group without a message of its own speaks with its member that tells what is wrong: in an any_of, the
     * alternative the learner took (its value measured) rather than the one not there.
     */
    @Test
    void shouldTellAFailedGroupInTheWordsOfTheMemberThatWasMeasured() throws Exception {
        String anyOf = """
                  - any_of:
                      - value: q.root.options.bandwidth
                        below: 5mbit
                        message: "CAKE shapes to {value} {unit}"
                      - value: q.root.options.rate
                        below: 5mbit
                        message: "tbf's rate is {value} {unit}"
                """;
        AssertionResult any = evaluate(anyOf).get(0);
        assertFalse(any.passed());
        assertEquals("tbf's rate is 10 Mbit/s", any.message());
        String allOf = "  - all_of:\n      - { value: q.root.kind, equals: tbf }\n"
                + "      - { value: up.mbps, above: 50mbit, message: \"too slow: {value} {unit}\" }\n";
        assertEquals("too slow: 9.61 Mbit/s", evaluate(allOf).get(0).message());
    }

    @Test
    void shouldFailMissingValueWithMeasurementError() throws Exception {
        Values failed = new Values(
                Map.of("up", Map.of("error", "unable to connect to server: Connection refused")),
                Map.of(),
                Map.of("up", "iperf3 reported: unable to connect to server: Connection refused"));
        String yaml = "measure:\n  - { name: up, node: client, iperf3: { server: 10.0.0.2 } }\nexpect:\n"
                + "  - { value: up.mbps, above: 1mbit }\n";
        AssertionResult r = Evaluator.evaluate(
                        CheckSpecParser.parse(FILE, yaml, 1).expect(), failed)
                .get(0);
        assertFalse(r.passed());
        assertTrue(r.message().contains("Connection refused"), r.message());
    }
}
