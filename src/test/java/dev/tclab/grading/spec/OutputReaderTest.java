package dev.tclab.grading.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tclab.grading.evaluate.AssertionResult;
import dev.tclab.grading.evaluate.Evaluator;
import dev.tclab.grading.evaluate.Values;
import dev.tclab.runtime.ExecResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OutputReaderTest {

    private static Values read(String check, String stdout) throws CheckSpecException {
        Measurement m = CheckSpecParser.parse("f.md", check, 1).measurements().get(0);
        MeasurementOutcome outcome = OutputReader.read(m, new ExecResult(0, stdout, "", false));
        return new Values(Map.of(m.name(), outcome.values()), Map.of(), Map.of());
    }

    @Test
    void shouldGiveARegexGroupTheDeclaredUnitSoAUnitExpectationPasses() throws Exception {
        Values values = read("""
                measure: [ { name: x, node: c, command: "echo", regex: "rate=(?<rate>\\\\d+)", unit: Mbit/s } ]
                """, "rate=5\n");
        AssertionResult near = Evaluator.evaluate(
                CheckSpecParser.parse("f.md", """
                measure: [ { name: x, node: c, command: "echo", regex: "rate=(?<rate>\\\\d+)", unit: Mbit/s } ]
                expect: [ { value: x.match.rate, near: 5000kbit, within: 1% } ]
                """, 1).expect().get(0), values);
        assertTrue(near.passed(), near.toString());
        assertEquals(5000.0, near.number(), 1e-9, "shown in the expectation's unit");
    }

    @Test
    void shouldGiveEveryJsonNumberTheDeclaredUnit() throws Exception {
        Values values = read("""
                measure: [ { name: j, node: c, command: "echo", parse: json, unit: ms } ]
                """, "{\"rtt\": [1.5, 2], \"rate\": 3}");
        CheckSpec spec = CheckSpecParser.parse("f.md", """
                measure: [ { name: j, node: c, command: "echo", parse: json, unit: ms } ]
                expect:
                  - { value: "j.json.rtt[1]", near: 2000us, within: 1% }
                  - { value: j.json.rate, between: [2ms, 4ms] }
                """, 1);
        List<AssertionResult> results = Evaluator.evaluate(spec.expect(), values);
        assertTrue(results.stream().allMatch(AssertionResult::passed), results.toString());
    }
}
