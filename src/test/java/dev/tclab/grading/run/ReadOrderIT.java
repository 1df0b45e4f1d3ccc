package dev.tclab.grading.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tclab.grading.spec.CheckSpecException;
import dev.tclab.grading.spec.CheckSpecParser;
import dev.tclab.grading.spec.Measure;
import dev.tclab.lab.TestTopologies;
import dev.tclab.lab.runtime.ExecResult;
import dev.tclab.lab.runtime.LabRuntime;
import dev.tclab.lab.runtime.LabSpec;
import dev.tclab.testing.RunsAlone;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 23: a measurement listed after a load reads after it. On a real HTB tree whose class 1:10 (rate 5mbit, ceil
 * 20mbit) borrows from its parent during an iperf3 load, the class's {@code borrowed} counter read after the load is
 * well above the one read before it, whichever way the check says so (a reading, a load, a reading; or {@code over}),
 * on the fast paths and the plain way.
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
// Shared: its one flow runs through the test's own HTB tree of 20 Mbit/s, and it holds that rate to 10 % and 15 % and
// counters read before and after the load; none of that moves under load, and its flow stays off exclusive classes.
@RunsAlone(value = RunsAlone.Group.MEASUREMENTS, hold = RunsAlone.Hold.SHARED)
class ReadOrderIT {

    private static final String READ_LOAD_READ = """
            measure:
              - { name: c0, node: client, classes: { dev: eth1 } }
              - { name: up, node: client, iperf3: { server: 10.0.0.2, seconds: 8 } }
              - { name: c1, node: client, classes: { dev: eth1 } }
            expect:
              - { value: up.mbps, near: 20mbit, within: 10% }
              - { value: "c1.by_id[1:10].borrowed", ratio_to: "c0.by_id[1:10].borrowed", above: 1 }
            """;

    /** The same with a configuration gate, so the cheap reads run first while the load's server starts. */
    private static final String GATED = READ_LOAD_READ + """
              - { value: "c0.by_id[1:10].ceil", equals: 20mbit }
            """;

    private static final String OVER = """
            measure:
              - { name: up, node: client, iperf3: { server: 10.0.0.2, seconds: 3 } }
              - { name: c, node: client, classes: { dev: eth1 }, over: up }
            expect:
              - { value: up.mbps, near: 20mbit, within: 15% }
              - { value: "c.by_id[1:10].delta.borrowed", above: 20 }
              - { value: "c.by_id[1:10].per_second.bits", near: 20mbit, within: 20% }
            """;

    @Inject
    LabRuntime runtime;

    @Inject
    CheckRunner runner;

    private String lab;

    @BeforeAll
    void startBorrowingTree() throws Exception {
        lab = "o" + UUID.randomUUID().toString().substring(0, 8);
        runtime.start(new LabSpec(lab, TestTopologies.load("two-node"), "tester", "two-node"), (stage, detail) -> {});
        for (String command : List.of(
                "tc qdisc add dev eth1 root handle 1: htb default 10",
                "tc class add dev eth1 parent 1: classid 1:1 htb rate 20mbit",
                "tc class add dev eth1 parent 1:1 classid 1:10 htb rate 5mbit ceil 20mbit",
                // A short load first, so the reading before each check's load already counts some borrowing.
                "iperf3 -C cubic -c 10.0.0.2 -t 1 -b 20M")) {
            ExecResult done = runtime.exec(lab, "client", List.of("sh", "-c", command), Duration.ofSeconds(10));
            assertTrue(done.ok(), command + ": " + done.stderr());
        }
    }

    @AfterAll
    void stopLab() throws Exception {
        runtime.stop(lab);
    }

    @ParameterizedTest(name = "fast paths {0}")
    @ValueSource(booleans = {true, false})
    void shouldReadAMeasurementListedAfterALoadAfterIt(boolean fast) throws Exception {
        assertBorrowedRoseBetweenReads(READ_LOAD_READ, fast);
    }

    @ParameterizedTest(name = "fast paths {0}")
    @ValueSource(booleans = {true, false})
    void shouldReadAMeasurementListedAfterALoadAfterItWhenAGateIsReadFirst(boolean fast) throws Exception {
        assertBorrowedRoseBetweenReads(GATED, fast);
    }

    @ParameterizedTest(name = "fast paths {0}")
    @ValueSource(booleans = {true, false})
    void shouldSeeTheCountersRiseOverALoad(boolean fast) throws Exception {
        CheckResult result = runner.run(
                lab, lab, "over", CheckSpecParser.parse("it.md", OVER, 1), BaselineSteps.UNKNOWN, p -> {}, fast);
        System.out.printf(
                "over (fast paths %s): up %.2f Mbit/s, 1:10 delta.borrowed %s, per_second.bits %s%n",
                fast,
                result.assertions().get(0).number(),
                result.assertions().get(1).number(),
                result.assertions().get(2).number());
        assertEquals(CheckResult.Status.PASSED, result.status(), result.message() + " " + result.assertions());
    }

    private void assertBorrowedRoseBetweenReads(String check, boolean fast) throws CheckSpecException {
        CheckResult result = runner.run(
                lab, lab, "order", CheckSpecParser.parse("it.md", check, 1), BaselineSteps.UNKNOWN, p -> {}, fast);
        double before = borrowed(result, "c0");
        double after = borrowed(result, "c1");
        System.out.printf(
                "read, load, read (fast paths %s): up %.2f Mbit/s, 1:10 borrowed %.0f before, %.0f after%n",
                fast, result.assertions().get(0).number(), before, after);
        assertThat(after)
                .as("1:10's borrowed counter read after the load, against %s before it", before)
                .isGreaterThan(before + 20);
        assertEquals(CheckResult.Status.PASSED, result.status(), result.message() + " " + result.assertions());
    }

    @SuppressWarnings("unchecked")
    private static double borrowed(CheckResult result, String measurement) {
        Map<String, Object> classes = (Map<String, Object>) result.measured().get(measurement);
        Map<String, Object> byId = (Map<String, Object>) classes.get("by_id");
        Object value = ((Map<String, Object>) byId.get("1:10")).get("borrowed");
        return value instanceof Measure m ? m.value() : ((Number) value).doubleValue();
    }
}
