package dev.tclab.grading.evaluate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.grading.spec.CheckSpec;
import dev.tclab.grading.spec.CheckSpecException;
import dev.tclab.grading.spec.CheckSpecParser;
import dev.tclab.grading.spec.Measure;
import dev.tclab.grading.spec.Unit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each expectation's typed reason: what happened, what was measured in the lesson's terms, with units. */
class ReasonTest {

    private static final String MEASURE = """
            measure:
              - { name: up, node: client, iperf3: { server: 10.0.0.2, seconds: 5 } }
              - { name: down, node: client, iperf3: { server: 10.0.0.2, seconds: 5, reverse: true } }
              - { name: q, node: client, qdisc: { dev: eth1 } }
              - { name: c, node: client, classes: { dev: eth1 }, over: up }
              - { name: lat, node: client, ping: { target: 10.0.0.2, count: 10, interval: 0.2 }, during: up }
              - { name: d, node: client, command: "tc -d class show dev eth1", regex: "quantum (?<quantum>\\\\d+)", unit: bytes }
            expect:
            """;

    private final Values values = new Values(
            Map.of(
                    "up", Map.of("mbps", new Measure(26_900, Unit.MBIT_PER_S)),
                    "q", Map.of("root", Map.of("kind", "noqueue")),
                    "c",
                            Map.of(
                                    "by_id",
                                    Map.of(
                                            "1:10",
                                            Map.of(
                                                    "delta",
                                                    Map.of(
                                                            "borrowed",
                                                            new Measure(3, Unit.NONE),
                                                            "bytes",
                                                            new Measure(7_500_000, Unit.BYTES))))),
                    "d", Map.of("match", Map.of("quantum", new Measure(1514, Unit.BYTES)))),
            Map.of("native", new Measure(15_000, Unit.MBIT_PER_S)),
            Map.of("lat", Values.SKIPPED, "down", "iperf3: the server is busy"));

    private Reason reason(String expect) throws CheckSpecException {
        CheckSpec spec = CheckSpecParser.parse("t.md", MEASURE + expect, 1);
        return Evaluator.evaluate(spec.expect(), values, Subjects.of(spec))
                .get(0)
                .reason();
    }

    @Test
    void shouldSayWhatWasMeasuredInTheLessonsTermsWithAReadableUnit() throws Exception {
        Reason r = reason("  - { value: up.mbps, near: 10mbit, within: 15% }\n");
        assertEquals(Reason.Kind.NOT_MET, r.kind());
        assertEquals("up", r.measurement());
        assertEquals("the client's upload", r.subject());
        assertEquals("26.9 Gbit/s", r.measured());
        assertEquals("Gbit/s", r.unit());
        assertEquals("about 10 Mbit/s (± 15 %)", r.expected());
        assertEquals("near", r.comparison());
        assertFalse(r.authored());
    }

    @Test
    void shouldNameCountersByWhatTheyCountAndSizesInBinaryUnits() throws Exception {
        Reason borrowed = reason("  - { value: \"c.by_id[1:10].delta.borrowed\", above: 20 }\n");
        assertEquals("the borrows of class 1:10 on the client's eth1 over the load", borrowed.subject());
        assertEquals("3 borrows", borrowed.measured());
        assertEquals("above 20 borrows", borrowed.expected());
        Reason bytes = reason("  - { value: \"c.by_id[1:10].delta.bytes\", above: 20mb }\n");
        assertEquals("7.15 MiB", bytes.measured());
        assertEquals("above 20 MiB", bytes.expected());
        Reason quantum = reason("  - { value: d.match.quantum, below: 1kb }\n");
        assertEquals("the quantum printed by `tc -d class show dev eth1` on the client", quantum.subject());
        assertEquals("1.48 KiB", quantum.measured());
    }

    @Test
    void shouldTellSkippedFailedMissingAndRatios() throws Exception {
        Reason skipped = reason("  - { value: lat.avg_ms, below: 50ms }\n");
        assertEquals(Reason.Kind.SKIPPED, skipped.kind());
        // A ping taken during a load says so: an idle ping and one under load read apart (issue 42, item 2).
        assertEquals(
                "average round trip of the client's ping to 10.0.0.2 during the client's upload", skipped.subject());
        assertNull(skipped.measured());
        Reason failed = reason("  - { value: down.mbps, above: 1mbit }\n");
        assertEquals(Reason.Kind.MEASUREMENT_FAILED, failed.kind());
        assertEquals("the client's download", failed.subject());
        assertEquals("iperf3: the server is busy", failed.error());
        Reason missing = reason("  - { value: q.root.options.rate, equals: 10mbit }\n");
        assertEquals(Reason.Kind.NO_VALUE, missing.kind());
        assertEquals("the rate option of the root qdisc on the client's eth1", missing.subject());
        Reason ratio = reason("  - { value: up.mbps, ratio_to: baseline.native, above: 0.25 }\n");
        assertEquals(Reason.Kind.HELD, ratio.kind());
        assertEquals("the figure recorded earlier as native", ratio.ratioTo());
        assertEquals("15 Gbit/s", ratio.baseline());
        assertEquals("above 0.25 times the figure recorded earlier as native", ratio.expected());
        Reason text = reason("  - { value: q.root.kind, equals: tbf, message: \"the root qdisc is {value}\" }\n");
        assertEquals("noqueue", text.measured());
        assertTrue(text.authored());
    }

    /**
     * Issue 42 item 2: a value that is not there (no ingress qdisc) fails with the author's message, which says what
     * is missing in the lesson's words, not with the value's path ("Q.ingress.kind: no value at q.ingress.kind").
     */
    @Test
    void shouldTellAMissingValueInTheAuthorsWordsWhenTheyWroteSome() throws Exception {
        CheckSpec spec = CheckSpecParser.parse(
                "t.md",
                MEASURE
                        + "  - { value: q.ingress.kind, equals: ingress, message: \"eth1 has no ingress qdisc; {path} should be {expected}\" }\n"
                        + "  - { value: q.ingress.kind, equals: ingress, message: \"the ingress qdisc is {value}\" }\n"
                        + "  - { value: q.ingress.kind, equals: ingress }\n"
                        + "  - { value: down.mbps, above: 1mbit, message: \"the download is too slow\" }\n",
                1);
        List<AssertionResult> results = Evaluator.evaluate(spec.expect(), values, Subjects.of(spec));
        assertEquals(Reason.Kind.NO_VALUE, results.get(0).reason().kind());
        assertEquals(
                "eth1 has no ingress qdisc; q.ingress.kind should be equal to ingress",
                results.get(0).message());
        assertTrue(results.get(0).reason().authored());
        // A message about a figure there is none of: the page says it in its own words (Reason.subject).
        assertFalse(results.get(1).reason().authored());
        assertEquals(
                "q.ingress.kind: no value at q.ingress.kind; expected equal to ingress",
                results.get(1).message());
        assertFalse(results.get(2).reason().authored());
        assertEquals(Reason.Kind.MEASUREMENT_FAILED, results.get(3).reason().kind());
        assertFalse(results.get(3).reason().authored(), "a failed measurement is told by its error");
    }

    /** Issue 40 item 2: a failed comparison with a baseline says when that figure was read: which step recorded it. */
    @Test
    void shouldSayWhichStepRecordedTheBaselineAFailedRatioComparesWith() throws Exception {
        CheckSpec spec = CheckSpecParser.parse(
                "t.md", MEASURE + "  - { value: up.mbps, ratio_to: baseline.native, below: 0.5 }\n", 1);
        AssertionResult result = Evaluator.evaluate(spec.expect(), values, Subjects.of(spec, Map.of("native", 2)))
                .get(0);
        assertFalse(result.passed());
        assertEquals(
                "the figure step 2's check recorded as native", result.reason().ratioTo());
        assertEquals("15 Gbit/s", result.reason().baseline());
        assertEquals("26.9 Gbit/s", result.reason().measured());
        assertTrue(
                result.measured().endsWith("(baseline.native, recorded by step 2's check)"),
                "the self-test's line says when: " + result.measured());
    }

    /** Issue 40: a failed delta says both counters it read, before and after the load, in the learner's words. */
    @Test
    void shouldSayWhatADeltaRoseFromAndToBeforeAndAfterTheLoad() throws Exception {
        Map<String, Object> before = Map.of("by_id", Map.of("1:10", Map.of("borrowed", new Measure(10, Unit.NONE))));
        Map<String, Object> after = Map.of("by_id", Map.of("1:10", Map.of("borrowed", new Measure(10, Unit.NONE))));
        Values read = new Values(
                Map.of("c", dev.tclab.grading.spec.Counters.over(before, deepCopy(after), 4)), Map.of(), Map.of());
        CheckSpec spec = CheckSpecParser.parse(
                "t.md", MEASURE + "  - { value: \"c.by_id[1:10].delta.borrowed\", above: 0 }\n", 1);
        AssertionResult result =
                Evaluator.evaluate(spec.expect(), read, Subjects.of(spec)).get(0);
        assertFalse(result.passed());
        assertEquals("0 borrows", result.reason().measured());
        assertEquals("10 borrows", result.reason().before());
        assertEquals("10 borrows", result.reason().after());
        assertEquals("0 (10 borrows before the load, 10 borrows after it)", result.measured());
        Reason rate = reason("  - { value: up.mbps, near: 10mbit, within: 15% }\n");
        assertNull(rate.before(), "only a delta has two sides");
    }

    /** A mutable copy of a counter tree, as a measurement's parser makes (Counters.over adds to its entries). */
    private static Map<String, Object> deepCopy(Map<String, Object> tree) {
        Map<String, Object> copy = new java.util.LinkedHashMap<>();
        tree.forEach((k, v) -> {
            @SuppressWarnings("unchecked")
            Object value = v instanceof Map<?, ?> m ? deepCopy((Map<String, Object>) m) : v;
            copy.put(k, value);
        });
        return copy;
    }

    @Test
    void shouldWriteTheKindInLowercaseJsonAndReadItBack() throws Exception {
        ObjectMapper json = new ObjectMapper();
        AssertionResult result = Evaluator.evaluate(
                        CheckSpecParser.parse("t.md", MEASURE + "  - { value: up.mbps, above: 1mbit }\n", 1)
                                .expect(),
                        values)
                .get(0);
        String text = json.writeValueAsString(result);
        assertTrue(text.contains("\"kind\":\"held\""), text);
        assertEquals(result, json.readValue(text, AssertionResult.class));
        AssertionResult old = json.readValue(
                "{\"path\":\"up.mbps\",\"measured\":\"1 Mbit/s\",\"passed\":true," + "\"children\":[]}",
                AssertionResult.class);
        assertNull(old.reason(), "a result kept before reasons existed reads back without one");
        assertEquals(List.of(), old.children());
    }

    /** A flow on a node of its own is said as that node's upload, not the measurement's ("flow b of the hosta's"). */
    @Test
    void shouldNameTheNodeAFlowRunsOn() throws Exception {
        CheckSpec spec = CheckSpecParser.parse("t.md", """
                measure:
                  - name: share
                    node: hosta
                    iperf3:
                      server: 10.0.0.2
                      seconds: 6
                      flows:
                        a: {}
                        b: { node: hostb, reverse: true }
                expect:
                  - { value: share.flows.a.mbps, above: 1mbit }
                  - { value: share.flows.b.retransmits, below: 10 }
                """, 1);
        Values measured = new Values(
                Map.of(
                        "share",
                        Map.of(
                                "flows",
                                Map.of(
                                        "a", Map.of("mbps", new Measure(5, Unit.MBIT_PER_S)),
                                        "b", Map.of("retransmits", new Measure(2, Unit.NONE))))),
                Map.of(),
                Map.of());
        List<AssertionResult> results = Evaluator.evaluate(spec.expect(), measured, Subjects.of(spec));
        assertEquals("the hosta's upload (flow a)", results.get(0).reason().subject());
        assertEquals(
                "retransmits of the hostb's download (flow b)",
                results.get(1).reason().subject());
    }
}
