package dev.tclab.grading.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.grading.spec.CheckSpec;
import dev.tclab.grading.spec.CheckSpecParser;
import dev.tclab.lab.TestTopologies;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.runtime.LabSpec;
import dev.tclab.testing.RunsAlone;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 13 point 5 on real labs: a class pressing Check on a shaped step at once is measured at once (capped flows
 * take a small share of a slot) and each learner's figure stays what it is alone; an uncapped baseline still waits
 * for a whole slot. {@code -Dit.class-labs=30} runs it for a whole class (default 8 labs).
 */
@QuarkusTest
@RunsAlone(RunsAlone.Group.MEASUREMENTS)
class SizedMeasurementsIT {

    /** tbf-basics step 2, as a learner gets it. */
    private static final String SHAPED_STEP = """
            measure:
              - { name: up, node: client, iperf3: { server: 10.0.0.2, seconds: 3 } }
              - { name: q, node: client, qdisc: { dev: eth1 } }
            expect:
              - { value: q.root.kind, equals: tbf }
              - { value: q.root.options.rate, equals: 10mbit }
              - { value: up.mbps, near: 10mbit, within: 12% }
            retries: 1
            """;
    /** The same measurement with no upper bound on the goodput: nothing caps it, so it takes a whole slot. */
    private static final String UNCAPPED_STEP = SHAPED_STEP.replace("near: 10mbit, within: 12%", "above: 5mbit");

    private static final int LABS = Integer.getInteger("it.class-labs", 8);

    @Inject
    LabRuntime runtime;

    @Inject
    CheckRunner runner;

    @Inject
    MeasurementSlots slots;

    private final List<String> labs = Collections.synchronizedList(new ArrayList<>());
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void stopLabs() throws Exception {
        List<Future<?>> stops = new ArrayList<>();
        for (String lab : List.copyOf(labs)) {
            stops.add(pool.submit(() -> {
                runtime.stop(lab);
                return null;
            }));
        }
        for (Future<?> stop : stops) {
            stop.get();
        }
        pool.shutdownNow();
    }

    /** One learner's check: its result, and when its throughput measurement started and the check ended. */
    private record Turn(CheckResult result, long measuringFromNanos, long doneNanos, boolean waitedForSlot) {
        double mbps() {
            return result.assertions().get(2).number();
        }
    }

    @Test
    void shouldMeasureAClassOfShapedChecksAtOnceAsAccuratelyAsAlone() throws Exception {
        startShapedLabs(LABS);
        CheckSpec shaped = CheckSpecParser.parse("it.md", SHAPED_STEP, 1);
        CheckSpec uncapped = CheckSpecParser.parse("it.md", UNCAPPED_STEP, 1);

        List<Double> alone = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            CheckResult r = runner.run("learner0", labs.get(0), "alone", shaped, BaselineSteps.UNKNOWN, p -> {});
            assertThat(r.status()).as(r.message()).isEqualTo(CheckResult.Status.PASSED);
            alone.add(r.assertions().get(2).number());
        }
        CheckResult aloneUncapped =
                runner.run("learner0", labs.get(0), "alone", uncapped, BaselineSteps.UNKNOWN, p -> {});
        assertThat(aloneUncapped.status()).as(aloneUncapped.message()).isEqualTo(CheckResult.Status.PASSED);

        long start = System.nanoTime();
        List<Turn> together = all(shaped);
        double wall = (System.nanoTime() - start) / 1e9;
        long uncappedStart = System.nanoTime();
        List<Turn> serialized = all(uncapped);
        double uncappedWall = (System.nanoTime() - uncappedStart) / 1e9;

        double aloneMean =
                alone.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        List<Double> figures = together.stream().map(Turn::mbps).sorted().toList();
        System.out.printf(
                "%d labs, tbf 10mbit: alone %s Mbit/s (uncapped alone %.3f); %d at once: %.3f..%.3f Mbit/s, "
                        + "all verdicts in %.1f s, none waited: %b. The same %d uncapped: all verdicts in %.1f s, %d waited%n",
                LABS,
                alone,
                aloneUncapped.assertions().get(2).number(),
                LABS,
                figures.get(0),
                figures.get(figures.size() - 1),
                wall,
                together.stream().noneMatch(Turn::waitedForSlot),
                LABS,
                uncappedWall,
                serialized.stream().filter(Turn::waitedForSlot).count());

        for (Turn t : together) {
            assertThat(t.result().status()).as(t.result().message()).isEqualTo(CheckResult.Status.PASSED);
            assertThat(t.mbps())
                    .as("the figure under the class's load, against %.3f alone", aloneMean)
                    .isBetween(aloneMean * 0.97, aloneMean * 1.03);
            assertThat(t.waitedForSlot())
                    .as("a capped 10 Mbit/s check needs no whole slot")
                    .isFalse();
        }
        long lastStart =
                together.stream().mapToLong(Turn::measuringFromNanos).max().orElseThrow();
        long firstEnd = together.stream().mapToLong(Turn::doneNanos).min().orElseThrow();
        assertThat(lastStart)
                .as("every throughput measurement ran while all the others did")
                .isLessThan(firstEnd);
        assertThat(serialized.stream().filter(Turn::waitedForSlot).count())
                .as("uncapped flows still go %d at a time", slots.size())
                .isGreaterThanOrEqualTo(LABS - slots.size());
        assertThat(slots.free()).isEqualTo(slots.size());
    }

    @Test
    void shouldAnswerAnObviousFailureInWellUnderASecond() throws Exception {
        startShapedLabs(1);
        ExecResult unshape = runtime.exec(
                labs.get(0), "client", List.of("tc", "qdisc", "del", "dev", "eth1", "root"), Duration.ofSeconds(10));
        assertThat(unshape.ok()).as(unshape.stderr()).isTrue();
        CheckSpec shaped = CheckSpecParser.parse("it.md", SHAPED_STEP, 1);

        CheckResult result = runner.run("learner0", labs.get(0), "shape", shaped, BaselineSteps.UNKNOWN, p -> {});
        System.out.printf(
                "no qdisc on eth1: %s in %d ms: %s%n",
                result.status(), result.duration().toMillis(), result.message());
        assertThat(result.status()).isEqualTo(CheckResult.Status.FAILED);
        assertThat(result.message())
                .isEqualTo("q.root.kind is noqueue; expected equal to tbf (throughput not measured until this holds)");
        assertThat(result.errors()).containsKey("up");
        assertThat(result.raw().getOrDefault("up", "")).as("iperf3 never ran").isEmpty();
        assertThat(result.duration()).isLessThan(Duration.ofMillis(800));
        ExecResult left = runtime.exec(
                labs.get(0),
                "server",
                List.of("sh", "-c", "pgrep -a iperf3; ls /tmp | grep iperf3-server"),
                Duration.ofSeconds(10));
        assertThat(left.stdout())
                .as("the server started alongside the qdisc read was stopped before the answer")
                .isEmpty();
    }

    private void startShapedLabs(int count) throws Exception {
        List<Future<?>> starts = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String lab = "z" + UUID.randomUUID().toString().substring(0, 8);
            labs.add(lab);
            starts.add(pool.submit(() -> {
                runtime.start(new LabSpec(lab, TestTopologies.load("two-node"), "tester", "two-node"), (s, d) -> {});
                ExecResult shape = runtime.exec(
                        lab,
                        "client",
                        List.of(
                                "tc", "qdisc", "add", "dev", "eth1", "root", "tbf", "rate", "10mbit", "burst", "32kb",
                                "latency", "100ms"),
                        Duration.ofSeconds(10));
                assertThat(shape.ok()).as(shape.stderr()).isTrue();
                return null;
            }));
        }
        for (Future<?> start : starts) {
            start.get();
        }
    }

    /** Every lab's learner presses Check at the same moment. */
    private List<Turn> all(CheckSpec spec) throws Exception {
        Map<Integer, Long> measuring = new ConcurrentHashMap<>();
        Map<Integer, Boolean> waited = new ConcurrentHashMap<>();
        List<Future<Turn>> turns = new ArrayList<>();
        for (int i = 0; i < labs.size(); i++) {
            int n = i;
            turns.add(pool.submit(() -> {
                CheckResult r = runner.run("learner" + n, labs.get(n), "class", spec, BaselineSteps.UNKNOWN, p -> {
                    if (p.stage() == CheckProgress.Stage.WAITING_FOR_SLOT) {
                        waited.put(n, true);
                    }
                    if (p.detail().equals("measuring up")) {
                        measuring.put(n, System.nanoTime());
                    }
                });
                return new Turn(r, measuring.getOrDefault(n, Long.MAX_VALUE), System.nanoTime(), waited.containsKey(n));
            }));
        }
        List<Turn> done = new ArrayList<>();
        for (Future<Turn> t : turns) {
            done.add(t.get());
        }
        return done;
    }
}
