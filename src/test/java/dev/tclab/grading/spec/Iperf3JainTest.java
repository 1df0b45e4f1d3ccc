package dev.tclab.grading.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tclab.grading.evaluate.Values;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Jain's fairness index of a measurement's flows ({@code share.jain}, docs/checks.md "Result fields"). */
class Iperf3JainTest {

    private static final String SHARE =
            "{ name: share, node: client, iperf3: { server: 10.0.0.2, flows: { a: {}, b: {} } } }";

    private static Iperf3Measurement measurement(String measure) throws CheckSpecException {
        return (Iperf3Measurement) CheckSpecParser.parse("f.md", "measure:\n  - " + measure + "\n", 1)
                .measurements()
                .get(0);
    }

    private static MeasurementOutcome flow(double mbps) {
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("mbps", new Measure(mbps, Unit.MBIT_PER_S));
        tree.put("bits_per_second", new Measure(mbps * 1e6, Unit.BIT_PER_S));
        tree.put("sent_bits_per_second", new Measure(mbps * 1e6, Unit.BIT_PER_S));
        return new MeasurementOutcome(tree, "", null);
    }

    private static double jainOf(double a, double b) throws CheckSpecException {
        Map<String, MeasurementOutcome> byFlow = new LinkedHashMap<>();
        byFlow.put("a", flow(a));
        byFlow.put("b", flow(b));
        MeasurementOutcome both = measurement(SHARE).combine(byFlow);
        Values values = new Values(Map.of("share", both.values()), Map.of(), Map.of());
        Measure j = (Measure)
                values.get(ValuePath.parse("share.jain").orElseThrow()).orElseThrow();
        assertEquals(Unit.NONE, j.unit());
        return j.value();
    }

    @Test
    void shouldBeOneForEqualShares() throws Exception {
        assertEquals(1.0, jainOf(5, 5), 1e-9);
    }

    @Test
    void shouldComputeTheIndexOfUnequalShares() throws Exception {
        // (8 + 2)² / (2 · (64 + 4)) = 100 / 136
        assertEquals(0.735, jainOf(8, 2), 0.0005);
        assertEquals(0.735, jainOf(2, 8), 0.0005);
    }

    @Test
    void shouldBeOneOverNWhenOneFlowTakesEverything() throws Exception {
        assertEquals(0.5, jainOf(9.5, 0), 1e-9);
        assertEquals(0.25, Iperf3Measurement.jain(List.of(0.0, 7.0, 0.0, 0.0)).orElseThrow(), 1e-9);
    }

    @Test
    void shouldScoreFourFlowsAgainstOneByFlowNotByHost() {
        // 4 flows of one host and 1 of another, each 2 Mbit/s: fair per flow.
        assertEquals(
                1.0, Iperf3Measurement.jain(List.of(2.0, 2.0, 2.0, 2.0, 2.0)).orElseThrow(), 1e-9);
    }

    @Test
    void shouldLeaveTheIndexOutWhenNothingArrived() {
        assertTrue(Iperf3Measurement.jain(List.of(0.0, 0.0)).isEmpty());
        assertTrue(Iperf3Measurement.jain(List.of()).isEmpty());
    }

    @Test
    void shouldAcceptJainOnlyAtTheTopOfAMeasurementWithFlows() {
        assertThat(problems("measure:\n  - { name: up, node: client, iperf3: { server: 10.0.0.2 } }\n"
                        + "expect:\n  - { value: up.jain, above: 0.9 }\n"))
                .anyMatch(p -> p.contains("has one flow"));
        assertThat(problems("measure:\n  - " + SHARE + "\nexpect:\n  - { value: share.flows.a.jain, above: 0.9 }\n"))
                .anyMatch(p -> p.contains("a flow's result is share.flows.a.<field>"));
    }

    @Test
    void shouldParseACheckThatGradesTheIndex() throws Exception {
        CheckSpecParser.parse(
                "f.md", "measure:\n  - " + SHARE + "\nexpect:\n  - { value: share.jain, above: 0.9 }\n", 1);
    }

    private static List<String> problems(String yaml) {
        try {
            CheckSpecParser.parse("f.md", yaml, 1);
            throw new AssertionError("expected problems in " + yaml);
        } catch (CheckSpecException e) {
            return e.problems().stream().map(p -> p.message()).toList();
        }
    }
}
