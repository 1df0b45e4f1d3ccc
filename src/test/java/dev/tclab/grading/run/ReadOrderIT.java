package dev.tclab.grading.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tclab.grading.spec.CheckSpecParser;
import dev.tclab.grading.spec.Measure;
import dev.tclab.lab.TestTopologies;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.runtime.LabSpec;
import dev.tclab.testing.RunsAlone;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
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

    /** One lab per way (fast paths, plain), each running its checks in order, both ways at once. */
    private final Map<Boolean, String> labs = new ConcurrentHashMap<>();

    private final Map<String, Future<CheckResult>> results = new ConcurrentHashMap<>();
    private final List<ExecutorService> ways = new ArrayList<>();

    @BeforeAll
    void startBorrowingTreesAndTheirChecks() {
        // The two ways at once, as two learners pressing Check would be: the app's measurement slots decide what
        // overlaps (a flow capped far under a core takes a small share of a slot), and each way has its own lab,
        // so neither reads the other's counters. A lab's own checks run one after another, as its learner's would.
        for (boolean fast : new boolean[] {true, false}) {
            String lab = "o" + UUID.randomUUID().toString().substring(0, 8);
            labs.put(fast, lab);
            ExecutorService way = Executors.newSingleThreadExecutor();
            ways.add(way);
            Future<?> tree = way.submit(() -> {
                startBorrowingTree(lab);
                return null;
            });
            for (Map.Entry<String, String> check :
                    List.of(Map.entry("order", READ_LOAD_READ), Map.entry("gated", GATED), Map.entry("over", OVER))) {
                results.put(check.getKey() + fast, way.submit(() -> {
                    tree.get();
                    return runner.run(
                            lab,
                            lab,
                            check.getKey(),
                            CheckSpecParser.parse("it.md", check.getValue(), 1),
                            BaselineSteps.UNKNOWN,
                            p -> {},
                            fast);
                }));
            }
        }
    }

    private void startBorrowingTree(String lab) throws Exception {
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
    void stopLabs() throws Exception {
        ways.forEach(ExecutorService::shutdownNow);
        for (String lab : labs.values()) {
            runtime.stop(lab);
        }
    }

    @ParameterizedTest(name = "fast paths {0}")
    @ValueSource(booleans = {true, false})
    void shouldReadAMeasurementListedAfterALoadAfterIt(boolean fast) throws Throwable {
        assertBorrowedRoseBetweenReads(result("order", fast), fast);
    }

    @ParameterizedTest(name = "fast paths {0}")
    @ValueSource(booleans = {true, false})
    void shouldReadAMeasurementListedAfterALoadAfterItWhenAGateIsReadFirst(boolean fast) throws Throwable {
        assertBorrowedRoseBetweenReads(result("gated", fast), fast);
    }

    @ParameterizedTest(name = "fast paths {0}")
    @ValueSource(booleans = {true, false})
    void shouldSeeTheCountersRiseOverALoad(boolean fast) throws Throwable {
        CheckResult result = result("over", fast);
        System.out.printf(
                "over (fast paths %s): up %.2f Mbit/s, 1:10 delta.borrowed %s, per_second.bits %s%n",
                fast,
                result.assertions().get(0).number(),
                result.assertions().get(1).number(),
                result.assertions().get(2).number());
        assertEquals(CheckResult.Status.PASSED, result.status(), result.message() + " " + result.assertions());
    }

    /** The check's result, failing as its run did (a lab that did not start, a check that threw). */
    private CheckResult result(String check, boolean fast) throws Throwable {
        try {
            return results.get(check + fast).get(3, TimeUnit.MINUTES);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            while (cause instanceof ExecutionException nested) {
                cause = nested.getCause();
            }
            throw cause;
        }
    }

    private void assertBorrowedRoseBetweenReads(CheckResult result, boolean fast) {
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
