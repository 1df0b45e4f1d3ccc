package dev.tclab.grading.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tclab.grading.spec.CheckSpec;
import dev.tclab.grading.spec.CheckSpecException;
import dev.tclab.grading.spec.CheckSpecParser;
import dev.tclab.grading.spec.Measure;
import dev.tclab.grading.spec.Unit;
import dev.tclab.lab.FakeLabRuntime;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.LabSpec;
import dev.tclab.runtime.NodeNotFoundException;
import dev.tclab.runtime.topology.Topology;
import dev.tclab.tc.Fixtures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The runner against {@link FakeLabRuntime} answering with real captured outputs. */
class CheckRunnerTest {

    /** A ping during a 5 s upload, which must see the queue the upload builds. */
    private static final String PING_DURING_UPLOAD = """
            measure:
              - { name: up, node: client, iperf3: { server: 10.0.0.2, seconds: 5 } }
              - { name: lat, node: client, ping: { target: 10.0.0.2, count: 10, interval: 0.2 }, during: up }
            expect:
              - { value: lat.avg_ms, above: 50ms }
            """;

    private static final String LAB = "lab1";
    private static final ExecResult TBF_10 = ok(Fixtures.read("iperf3/iperf3-tcp-tbf10.json"));
    private static final ExecResult UNSHAPED = ok(Fixtures.read("iperf3/iperf3-tcp-reverse.json"));

    private final FakeLabRuntime runtime = new FakeLabRuntime();
    private final InMemoryBaselineStore baselines = new InMemoryBaselineStore();
    private final List<CheckProgress> progress = Collections.synchronizedList(new ArrayList<>());
    private CheckRunner runner;

    @BeforeEach
    void startFakeLab() {
        Topology.Node client = new Topology.Node("client", null, false, Map.of(), Map.of(), List.of(), List.of());
        Topology.Node server = new Topology.Node("server", null, false, Map.of(), Map.of(), List.of(), List.of());
        runtime.running.put(
                LAB,
                new LabSpec(
                        LAB, new Topology("t", Map.of("client", client, "server", server), List.of()), "me", "tbf"));
        runner = new CheckRunner(runtime, baselines, new MeasurementSlots(2), Duration.ofMillis(50));
    }

    private static ExecResult ok(String stdout) {
        return new ExecResult(0, stdout, "", false);
    }

    private static CheckSpec spec(String yaml) throws CheckSpecException {
        return CheckSpecParser.parse("test.md", yaml, 1);
    }

    private static final String SHAPED = """
            measure:
              - { name: up, node: client, iperf3: { server: 10.0.0.2, seconds: 3 } }
              - { name: q, node: client, qdisc: { dev: eth1 } }
            expect:
              - { value: up.mbps, near: 10mbit, within: 15%, message: "measured {value} Mbit/s" }
              - { value: q.root.kind, equals: tbf }
            interval: 0s
            """;

    /** {@link #SHAPED} without an upper bound on the goodput: its flow runs uncapped and takes a whole slot. */
    private static final String UNCAPPED = SHAPED.replace("near: 10mbit, within: 15%", "above: 5mbit");

    @Test
    void shouldRunRealCommandsAndPassWhenShaped() throws Exception {
        runtime.execHandler =
                (node, cmd) -> cmd.startsWith("iperf3") ? TBF_10 : ok(Fixtures.read("tc/qdisc-tbf-loaded.json"));
        CheckResult result = runner.run(LAB, "shape", spec(SHAPED), BaselineSteps.UNKNOWN, progress::add);
        assertEquals(CheckResult.Status.PASSED, result.status(), result.message());
        assertEquals(3, runtime.execLog.size(), runtime.execLog.toString());
        assertEquals("client: tc -s -j qdisc show dev eth1", runtime.execLog.get(0), "the qdisc is read first");
        assertTrue(
                runtime.execLog
                        .get(1)
                        .matches("client: iperf3 -c 10\\.0\\.0\\.2 -J -C cubic -t 3 -p [0-9]{5} -b 23000000"),
                "the client runs against the check's own server port, capped at twice the highest passing goodput "
                        + "(10 Mbit/s + 15 %): " + runtime.execLog.get(1));
        assertEquals(
                "client: tc -s -j qdisc show dev eth1",
                runtime.execLog.get(2),
                "and read again after the load, " + "as the check lists it");
        assertEquals(List.of("server"), runtime.iperf3Servers, "a one-off server on the node holding 10.0.0.2");
        assertEquals("measured 9.64 Mbit/s", result.assertions().get(0).message());
        assertEquals(1, result.attempts());
        assertEquals(CheckProgress.Stage.DONE, progress.get(progress.size() - 1).stage());
    }

    @Test
    void shouldRaiseTheLabsCpuPriorityWhileThePlatformWorksInItOnly() throws Exception {
        List<String> raisedWhile = Collections.synchronizedList(new ArrayList<>());
        runtime.execHandler = (node, cmd) -> {
            raisedWhile.add(
                    cmd.substring(0, cmd.indexOf(' ')) + (runtime.cpuRaised.get() > 0 ? " raised" : " at rest"));
            return cmd.startsWith("iperf3") ? TBF_10 : ok(Fixtures.read("tc/qdisc-tbf-loaded.json"));
        };
        CheckResult result = runner.run(LAB, "shape", spec(SHAPED), BaselineSteps.UNKNOWN, progress::add);
        assertEquals(CheckResult.Status.PASSED, result.status(), result.message());
        assertEquals(3, raisedWhile.size(), raisedWhile.toString());
        assertTrue(raisedWhile.get(0).startsWith("tc "), "the gate's read runs while its raise is asked for");
        assertEquals(
                List.of("iperf3 raised", "tc raised"), raisedWhile.subList(1, 3), "the load and the read after it");
        assertEquals(2, runtime.cpuRaises.get(), "raised for the gate's round (its early server) and for the slot");
        long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (runtime.cpuRaised.get() != 0 && System.nanoTime() < until) {
            Thread.sleep(10);
        }
        assertEquals(
                0, runtime.cpuRaised.get(), "back at rest after the check (the gate's raise is given back behind)");
    }

    @Test
    void shouldFailWithLearnerMessageWhenUnshaped() throws Exception {
        runtime.execHandler =
                (node, cmd) -> cmd.startsWith("iperf3") ? UNSHAPED : ok(Fixtures.read("tc/qdisc-tbf-loaded.json"));
        CheckResult result = runner.run(
                LAB,
                "shape",
                spec(UNCAPPED.replace("above: 5mbit", "below: 11mbit")),
                BaselineSteps.UNKNOWN,
                progress::add);
        assertEquals(CheckResult.Status.FAILED, result.status());
        assertTrue(result.message().startsWith("measured 8306 Mbit/s"), result.message());
        assertTrue(result.assertions().get(1).passed());
    }

    @Test
    void shouldSkipTheThroughputWhenTheQdiscAlreadyFailsAndAnswerWithoutRetrying() throws Exception {
        runtime.execHandler =
                (node, cmd) -> cmd.startsWith("iperf3") ? UNSHAPED : ok(Fixtures.read("tc/qdisc-ingress.json"));
        long start = System.nanoTime();
        CheckResult result = runner.run(
                LAB,
                "shape",
                spec(SHAPED.replace("interval: 0s\n", "retries: 2\ninterval: 1s\n")),
                BaselineSteps.UNKNOWN,
                progress::add);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertEquals(CheckResult.Status.FAILED, result.status());
        assertEquals(List.of("client: tc -s -j qdisc show dev eth1"), runtime.execLog, "no iperf3 ran");
        assertEquals(
                "q.root.kind is noqueue; expected equal to tbf (throughput not measured until this holds)",
                result.message());
        assertEquals(1, result.attempts(), "a configuration read first does not change by retrying");
        assertTrue(millis < 900, "answered in " + millis + " ms");
        assertEquals("noqueue", result.assertions().get(1).measured());
        assertEquals(
                "up.mbps: not measured: skipped, since what the check reads first already fails; expected about "
                        + "10mbit (± 15 %)",
                result.assertions().get(0).message());
        assertEquals(List.of("server"), runtime.iperf3Servers, "the server was started alongside the qdisc read");
        assertEquals(List.of("server"), runtime.iperf3ServersStopped, "and stopped before the answer");
    }

    /** The plain way (tclab.grading.fast-paths=false): no early gate, so the load runs and failures retry as usual. */
    @Test
    void shouldMeasureEverythingAndRetryOnThePlainWayWithTheSameVerdict() throws Exception {
        runtime.execHandler =
                (node, cmd) -> cmd.startsWith("iperf3") ? UNSHAPED : ok(Fixtures.read("tc/qdisc-ingress.json"));
        CheckResult result = runner.run(
                LAB,
                LAB,
                "shape",
                spec(SHAPED.replace("interval: 0s\n", "retries: 1\ninterval: 0s\n")),
                BaselineSteps.UNKNOWN,
                progress::add,
                false);
        assertEquals(CheckResult.Status.FAILED, result.status());
        assertEquals(2, result.attempts(), "no gate settles it: it retries as any failure does");
        assertEquals(
                2,
                runtime.execLog.stream()
                        .filter(c -> c.startsWith("client: iperf3 -c"))
                        .count(),
                runtime.execLog.toString());
        assertEquals("noqueue", result.assertions().get(1).measured());
        assertEquals(List.of(), runtime.iperf3ServersStopped, "no server was started early, so none is stopped");
    }

    /** Whichever way it runs, a measurement listed before a load reads before it and one listed after reads after. */
    @Test
    void shouldReadInTheListedOrderAroundALoadBothWays() throws Exception {
        runtime.execHandler = (node, cmd) -> cmd.startsWith("iperf3") ? TBF_10 : ok(Fixtures.read("tc/class-htb.txt"));
        CheckSpec spec = spec("""
                measure:
                  - { name: c0, node: client, classes: { dev: eth1 } }
                  - { name: up, node: client, iperf3: { server: 10.0.0.2, seconds: 3 } }
                  - { name: c1, node: client, classes: { dev: eth1 } }
                expect:
                  - { value: up.mbps, near: 10mbit, within: 15% }
                  - { value: "c0.by_id[1:10].kind", equals: htb }
                """);
        for (boolean fast : new boolean[] {true, false}) {
            runtime.execLog.clear();
            CheckResult result = runner.run(LAB, LAB, "order", spec, BaselineSteps.UNKNOWN, progress::add, fast);
            assertEquals(CheckResult.Status.PASSED, result.status(), result.message());
            List<String> order = runtime.execLog.stream()
                    .map(c -> c.startsWith("client: iperf3 -c") ? "load" : c.contains("class show") ? "classes" : c)
                    .toList();
            // The fast way reads both cheap measurements at the gate, but keeps only the first one's reading.
            assertEquals(
                    fast ? List.of("classes", "classes", "load", "classes") : List.of("classes", "load", "classes"),
                    order,
                    "fast paths " + fast);
        }
    }

    @Test
    void shouldStartTheLoadsServerWhileTheGateIsReadAndUseIt() throws Exception {
        AtomicReference<List<String>> serversDuringGateRead = new AtomicReference<>();
        runtime.execHandler = (node, cmd) -> {
            if (cmd.startsWith("iperf3")) {
                return TBF_10;
            }
            if (serversDuringGateRead.get() == null) {
                // The first qdisc read (the gate) waits for the server start: it only comes while it runs.
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (runtime.iperf3Servers.isEmpty() && System.nanoTime() < until) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
                }
                serversDuringGateRead.set(List.copyOf(runtime.iperf3Servers));
            }
            return ok(Fixtures.read("tc/qdisc-tbf-loaded.json"));
        };
        CheckResult result = runner.run(LAB, "shape", spec(SHAPED), BaselineSteps.UNKNOWN, progress::add);
        assertEquals(CheckResult.Status.PASSED, result.status(), result.message());
        assertEquals(List.of("server"), serversDuringGateRead.get(), "the server started while the gate was read");
        assertEquals(List.of("server"), runtime.iperf3Servers, "and the load used it: no second server");
        assertEquals(List.of(), runtime.iperf3ServersStopped);
        assertEquals(3, runtime.execLog.size(), runtime.execLog.toString());
    }

    @Test
    void shouldGiveALoadNewServersWhenItStartsAfterItsEarlyServersGraceAndStopTheOldOnes() throws Exception {
        runner = new CheckRunner(
                runtime, baselines, new MeasurementSlots(2), Duration.ofMillis(50), Duration.ZERO, true);
        runtime.execHandler =
                (node, cmd) -> cmd.startsWith("iperf3") ? TBF_10 : ok(Fixtures.read("tc/qdisc-tbf-loaded.json"));
        CheckResult result = runner.run(LAB, "shape", spec(SHAPED), BaselineSteps.UNKNOWN, progress::add);
        assertEquals(CheckResult.Status.PASSED, result.status(), result.message());
        assertEquals(List.of("server", "server"), runtime.iperf3Servers, "one early, one when the load started");
        assertEquals(List.of("server"), runtime.iperf3ServersStopped, "the early one, which might have ended too soon");
    }

    @Test
    void shouldStopTheEarlyServerOfEveryFailingSampleAndStartNoneWithoutAGate() throws Exception {
        runtime.execHandler =
                (node, cmd) -> cmd.startsWith("iperf3") ? TBF_10 : ok(Fixtures.read("tc/qdisc-ingress.json"));
        for (int press = 0; press < 3; press++) {
            CheckResult result = runner.run(LAB, "shape", spec(SHAPED), BaselineSteps.UNKNOWN, progress::add);
            assertEquals(CheckResult.Status.FAILED, result.status());
        }
        assertEquals(
                List.of("server", "server", "server"),
                runtime.iperf3ServersStopped,
                "a learner pressing Check in a loop leaves no server behind");

        runtime.iperf3Servers.clear();
        runtime.iperf3ServersStopped.clear();
        String counters = SHAPED.replace("{ value: q.root.kind, equals: tbf }", "{ value: q.root.drops, above: 0 }");
        runner.run(LAB, "shape", spec(counters), BaselineSteps.UNKNOWN, progress::add);
        assertEquals(List.of("server"), runtime.iperf3Servers, "without a gate, the load starts its own server");
        assertEquals(List.of(), runtime.iperf3ServersStopped);
    }

    @Test
    void shouldNotSkipTheLoadForCountersTheLoadItselfMoves() throws Exception {
        // A fresh tbf has no drops yet: the check reads its counters after the load on purpose.
        String counters = SHAPED.replace("{ value: q.root.kind, equals: tbf }", "{ value: q.root.drops, above: 0 }");
        runtime.execHandler =
                (node, cmd) -> cmd.startsWith("iperf3") ? TBF_10 : ok(Fixtures.read("tc/qdisc-ingress.json"));
        CheckResult result = runner.run(LAB, "shape", spec(counters), BaselineSteps.UNKNOWN, progress::add);
        assertTrue(runtime.execLog.stream().anyMatch(c -> c.contains("iperf3")), runtime.execLog.toString());
        assertEquals(2, runtime.execLog.size(), "no first read without a gate: " + runtime.execLog);
        assertTrue(result.assertions().get(0).passed(), result.assertions().toString());
    }

    @Test
    void shouldSayWhenACappedFlowRanIntoItsCap() throws Exception {
        ExecResult atCap = ok(Fixtures.read("iperf3/iperf3-tcp-tbf10.json")
                .replaceAll("\"bits_per_second\":\\s*[0-9.e+]+", "\"bits_per_second\": 22900000"));
        runtime.execHandler =
                (node, cmd) -> cmd.startsWith("iperf3") ? atCap : ok(Fixtures.read("tc/qdisc-tbf-loaded.json"));
        CheckResult result = runner.run(LAB, "shape", spec(SHAPED), BaselineSteps.UNKNOWN, progress::add);
        assertEquals(CheckResult.Status.FAILED, result.status());
        assertEquals(
                "measured 22.9 Mbit/s (the platform capped up at 23 Mbit/s, twice what this check accepts, and it "
                        + "ran that fast: the link may be faster)",
                result.message());
    }

    @Test
    void shouldRetryUntilTheShaperAppears() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        runtime.execHandler = (node, cmd) -> {
            if (cmd.startsWith("iperf3")) {
                return runs.incrementAndGet() < 3 ? UNSHAPED : TBF_10;
            }
            return ok(Fixtures.read("tc/qdisc-tbf-loaded.json"));
        };
        CheckResult result =
                runner.run(LAB, "shape", spec(SHAPED + "retries: 2\n"), BaselineSteps.UNKNOWN, progress::add);
        assertEquals(CheckResult.Status.PASSED, result.status());
        assertEquals(3, result.attempts());
        assertTrue(progress.stream().anyMatch(p -> p.stage() == CheckProgress.Stage.WAITING));
    }

    @Test
    void shouldGiveUpAfterRetries() throws Exception {
        runtime.execHandler =
                (node, cmd) -> cmd.startsWith("iperf3") ? UNSHAPED : ok(Fixtures.read("tc/qdisc-tbf-loaded.json"));
        CheckResult result =
                runner.run(LAB, "shape", spec(SHAPED + "retries: 1\n"), BaselineSteps.UNKNOWN, progress::add);
        assertEquals(CheckResult.Status.FAILED, result.status());
        assertEquals(2, result.attempts());
    }

    @Test
    void shouldRequireConsecutivePassesForStableWindow() throws Exception {
        // pass, fail, pass, pass: with stable 2 and one retry allowed, it passes on the 4th sample.
        List<ExecResult> answers = List.of(TBF_10, UNSHAPED, TBF_10, TBF_10);
        AtomicInteger runs = new AtomicInteger();
        runtime.execHandler = (node, cmd) -> cmd.startsWith("iperf3")
                ? answers.get(runs.getAndIncrement())
                : ok(Fixtures.read("tc/qdisc-tbf-loaded.json"));
        CheckResult result = runner.run(
                LAB, "shape", spec(SHAPED + "stable: 2\nretries: 1\n"), BaselineSteps.UNKNOWN, progress::add);
        assertEquals(CheckResult.Status.PASSED, result.status(), result.message());
        assertEquals(4, result.attempts());
        assertTrue(result.message().contains("2 consecutive samples"));
    }

    @Test
    void shouldRunPingDuringLoadAndRecordBaselineForLaterRatio() throws Exception {
        CountDownLatch loadRunning = new CountDownLatch(1);
        runtime.execHandler = (node, cmd) -> {
            if (cmd.startsWith("iperf3")) {
                loadRunning.countDown();
                sleep(300);
                return TBF_10;
            }
            // The ping must start while the load runs.
            assertTrue(await(loadRunning), "ping started before the load");
            return ok(Fixtures.read("ping/ping-iputils-under-load.txt"));
        };
        String loaded = PING_DURING_UPLOAD + """
                record:
                  loaded_ping: lat.avg_ms
                """;
        CheckResult before = runner.run(LAB, "bloat", spec(loaded), BaselineSteps.UNKNOWN, progress::add);
        assertEquals(CheckResult.Status.PASSED, before.status(), before.message());
        // Logged when called, which may be before the load's client is (its server starts on other threads): the
        // handler above holds the ping until the load runs.
        assertTrue(runtime.execLog.contains("client: ping -q -c 10 -i 0.2 -w 4 10.0.0.2"), runtime.execLog.toString());
        assertEquals(new Measure(94.322, Unit.MS), baselines.all(LAB).get("loaded_ping"));

        runtime.execHandler = (node, cmd) -> cmd.startsWith("iperf3")
                ? TBF_10
                : ok(
                        "10 packets transmitted, 10 received, 0% packet loss, time 1806ms\nrtt min/avg/max/mdev = 1.0/4.5/9.0/1.2 ms\n");
        String fixed = loaded.replace("above: 50ms", "ratio_to: baseline.loaded_ping, below: 0.1")
                .replace("record:\n  loaded_ping: lat.avg_ms\n", "");
        CheckResult after = runner.run(LAB, "fixed", spec(fixed), BaselineSteps.UNKNOWN, progress::add);
        assertEquals(CheckResult.Status.PASSED, after.status(), after.message());
        assertEquals(4.5 / 94.322, after.assertions().get(0).ratio(), 1e-9);
        assertEquals(4.5, after.assertions().get(0).number());
    }

    @Test
    void shouldStartWhatRunsDuringALoadOnlyOnceTheLoadsReadsBeforeItAreDone() throws Exception {
        // As in a kernel of its own, where the read of where a flow goes starts processes at 0.1-0.5 s each: it ran in
        // the load's exec after the prelude, and a ping during the load on a slow host ran before the load did.
        FakeLabRuntime slowReads = new FakeLabRuntime() {
            @Override
            public ExecResult exec(String labId, String node, List<String> command, Duration timeout)
                    throws EngineUnavailableException, NodeNotFoundException {
                if (String.join(" ", command).startsWith("sh -c echo @@tclab-qdiscs")) {
                    sleep(600);
                }
                return super.exec(labId, node, command, timeout);
            }
        };
        slowReads.running.putAll(runtime.running);
        AtomicBoolean loadStarted = new AtomicBoolean();
        List<String> pingFound = Collections.synchronizedList(new ArrayList<>());
        slowReads.execHandler = (node, cmd) -> {
            if (cmd.startsWith("iperf3")) {
                loadStarted.set(true);
                sleep(400);
                return TBF_10;
            }
            pingFound.add(loadStarted.get() ? "the load running" : "no load yet");
            return ok(Fixtures.read("ping/ping-iputils-under-load.txt"));
        };
        String loaded = PING_DURING_UPLOAD;
        CheckRunner runner = new CheckRunner(slowReads, baselines, new MeasurementSlots(2), Duration.ofMillis(200));
        CheckResult result = runner.run(LAB, "bloat", spec(loaded), BaselineSteps.UNKNOWN, progress::add);
        assertEquals(CheckResult.Status.PASSED, result.status(), result.message());
        assertEquals(List.of("the load running"), pingFound);
    }

    @Test
    void shouldStopAtOnceWithoutMeasuringWhenTheLabHasNotRecordedTheBaseline() throws Exception {
        String fixed = """
                measure:
                  - { name: up, node: client, iperf3: { server: 10.0.0.2, seconds: 3 } }
                expect:
                  - value: up.mbps
                    ratio_to: baseline.native_mbps
                    above: 0.05
                    message: "measured {value} Mbit/s, against {baseline} Mbit/s in step 1"
                retries: 2
                interval: 0s
                """;
        CheckResult result = runner.run(LAB, "back", spec(fixed), BaselineSteps.UNKNOWN, progress::add);
        assertEquals(CheckResult.Status.ERROR, result.status(), result.message());
        assertEquals(0, result.attempts());
        assertEquals(List.of(), runtime.execLog);
        assertEquals(
                "This check compares with baseline.native_mbps, which an earlier step's check records, and this "
                        + "lab has none yet (a new lab starts without it): press Check on that step again, then here.",
                result.message());
        assertEquals(CheckProgress.Stage.DONE, progress.get(progress.size() - 1).stage());
    }

    @Test
    void shouldFailWithIperfErrorAndKeepRawOutput() throws Exception {
        runtime.execHandler = (node, cmd) -> cmd.startsWith("iperf3")
                ? new ExecResult(1, Fixtures.read("iperf3/iperf3-error-refused.json"), "", false)
                : ok(Fixtures.read("tc/qdisc-tbf-loaded.json"));
        CheckResult result = runner.run(LAB, "shape", spec(SHAPED), BaselineSteps.UNKNOWN, progress::add);
        assertEquals(CheckResult.Status.FAILED, result.status());
        assertEquals(
                "Measurement 'up' failed: iperf3 reported: unable to connect to server: Connection refused",
                result.message());
        assertTrue(result.raw().get("up").contains("Connection refused"));
    }

    @Test
    void shouldSayPlainlyWhenTheLearnerHoldsTheChecksIperf3Port() throws Exception {
        runtime.iperf3ServerExit = 3;
        runtime.execHandler = (node, cmd) -> ok(Fixtures.read("tc/qdisc-tbf-loaded.json"));
        CheckResult result = runner.run(LAB, "shape", spec(SHAPED), BaselineSteps.UNKNOWN, progress::add);
        assertEquals(CheckResult.Status.FAILED, result.status());
        assertTrue(
                result.errors()
                        .get("up")
                        .matches(
                                "port [0-9]{5} on node server is taken by a process in the lab, so"
                                        + " the measurement's iperf3 server cannot listen there; stop that process and check again"),
                result.errors().get("up"));
        assertTrue(
                runtime.execLog.stream().noneMatch(c -> c.contains("iperf3")),
                "no client without a server: " + runtime.execLog);
    }

    @Test
    void shouldSayWhenNoNodeHoldsTheIperf3ServerAddress() throws Exception {
        Topology.Node client = new Topology.Node(
                "client", null, false, Map.of(), Map.of(), List.of("ip addr add 10.0.0.1/24 dev eth1"), List.of());
        Topology.Node server = new Topology.Node(
                "server", null, false, Map.of(), Map.of(), List.of("ip addr add 10.0.0.3/24 dev eth1"), List.of());
        runtime.running.put(
                LAB,
                new LabSpec(
                        LAB, new Topology("t", Map.of("client", client, "server", server), List.of()), "me", "tbf"));
        runtime.execHandler = (node, cmd) -> ok(Fixtures.read("tc/qdisc-tbf-loaded.json"));
        CheckResult result = runner.run(LAB, "shape", spec(SHAPED), BaselineSteps.UNKNOWN, progress::add);
        assertEquals(
                "no node of the lab has the address 10.0.0.2, so there is no server to measure against",
                result.errors().get("up"));
        assertEquals(List.of(), runtime.iperf3Servers);
    }

    @Test
    void shouldSayWhenTheIperf3ServerAddressIsOnTwoNodes() throws Exception {
        Topology.Node client = new Topology.Node(
                "client", null, false, Map.of(), Map.of(), List.of("ip addr add 10.0.0.2/24 dev eth1"), List.of());
        Topology.Node server = new Topology.Node(
                "server", null, false, Map.of(), Map.of(), List.of("ip addr add 10.0.0.2/24 dev eth1"), List.of());
        runtime.running.put(
                LAB,
                new LabSpec(
                        LAB, new Topology("t", Map.of("client", client, "server", server), List.of()), "me", "tbf"));
        runtime.execHandler = (node, cmd) -> ok(Fixtures.read("tc/qdisc-tbf-loaded.json"));
        CheckResult result = runner.run(LAB, "shape", spec(SHAPED), BaselineSteps.UNKNOWN, progress::add);
        assertEquals(
                "the address 10.0.0.2 is on more than one node (client, server); remove it from all but one",
                result.errors().get("up"));
        assertTrue(runtime.execLog.stream().noneMatch(c -> c.contains("iperf3")), "no client: " + runtime.execLog);
    }

    @Test
    void shouldFailWhenTcCannotFindTheDevice() throws Exception {
        runtime.execHandler = (node, cmd) ->
                cmd.startsWith("iperf3") ? TBF_10 : new ExecResult(1, "", "Cannot find device \"eth1\"\n", false);
        CheckResult result = runner.run(LAB, "shape", spec(SHAPED), BaselineSteps.UNKNOWN, progress::add);
        assertEquals(CheckResult.Status.FAILED, result.status());
        assertEquals("tc failed: Cannot find device \"eth1\"", result.errors().get("q"));
    }

    @Test
    void shouldReportErrorWhenLabIsGone() throws Exception {
        runtime.running.clear();
        CheckResult result = runner.run(LAB, "shape", spec(SHAPED), BaselineSteps.UNKNOWN, progress::add);
        assertEquals(CheckResult.Status.ERROR, result.status());
        assertTrue(result.message().contains("not running"), result.message());
    }

    @Test
    void shouldReadCommandOutputWithRegexGroupsAndExitCode() throws Exception {
        runtime.execHandler = (node, cmd) -> ok(Fixtures.read("tc/qdisc-tbf-loaded.txt"));
        CheckResult result = runner.run(LAB, "cmd", spec("""
                measure:
                  - name: shown
                    node: client
                    command: "tc -s qdisc show dev eth1"
                    regex: "rate (?<mbit>\\\\d+)Mbit burst (?<burst>\\\\S+)"
                expect:
                  - { value: shown.match.mbit, equals: 10 }
                  - { value: shown.match.burst, equals: 32Kb }
                  - { value: shown.exit_code, equals: 0 }
                """), BaselineSteps.UNKNOWN, progress::add);
        assertEquals(CheckResult.Status.PASSED, result.status(), result.message());
        assertEquals("client: sh -c tc -s qdisc show dev eth1", runtime.execLog.get(0));
    }

    @Test
    void shouldMakeSecondThroughputMeasurementWaitForASlot() throws Exception {
        MeasurementSlots oneSlot = new MeasurementSlots(1);
        CheckRunner shared = new CheckRunner(runtime, baselines, oneSlot, Duration.ZERO);
        CountDownLatch firstRunning = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        runtime.execHandler = (node, cmd) -> {
            if (cmd.startsWith("iperf3") && firstRunning.getCount() == 1) {
                firstRunning.countDown();
                await(release);
            }
            return cmd.startsWith("iperf3") ? TBF_10 : ok(Fixtures.read("tc/qdisc-tbf-loaded.json"));
        };
        Thread first = new Thread(() -> shared.run(LAB, "a", specUnchecked(UNCAPPED), BaselineSteps.UNKNOWN, p -> {}));
        first.start();
        assertTrue(await(firstRunning));
        List<CheckProgress> second = Collections.synchronizedList(new ArrayList<>());
        Thread secondThread =
                new Thread(() -> shared.run(LAB, "b", specUnchecked(UNCAPPED), BaselineSteps.UNKNOWN, second::add));
        secondThread.start();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (second.stream().noneMatch(p -> p.stage() == CheckProgress.Stage.WAITING_FOR_SLOT)
                && System.nanoTime() < until) {
            sleep(10);
        }
        assertTrue(second.stream()
                .anyMatch(p -> p.stage() == CheckProgress.Stage.WAITING_FOR_SLOT
                        && p.detail().equals("waiting for a measurement slot: 1st in line")));
        release.countDown();
        first.join(5000);
        secondThread.join(5000);
        assertEquals(1, oneSlot.free());
        assertEquals(CheckProgress.Stage.DONE, second.get(second.size() - 1).stage());
    }

    @Test
    void shouldServeAnotherLearnersCheckBeforeTheSameLearnersNextOne() throws Exception {
        // Row 8 of issue 10: one learner's two checks held the slots and another learner's check waited 27 s.
        MeasurementSlots oneSlot = new MeasurementSlots(1);
        CheckRunner shared = new CheckRunner(runtime, baselines, oneSlot, Duration.ZERO);
        CountDownLatch firstRunning = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<String> iperfOrder = Collections.synchronizedList(new ArrayList<>());
        runtime.execHandler = (node, cmd) -> {
            if (cmd.startsWith("iperf3")) {
                iperfOrder.add(cmd.replaceAll(".* -c (\\S+).*", "$1"));
                if (firstRunning.getCount() == 1) {
                    firstRunning.countDown();
                    await(release);
                }
                return TBF_10;
            }
            return ok(Fixtures.read("tc/qdisc-tbf-loaded.json"));
        };
        List<CheckProgress> annSecond = Collections.synchronizedList(new ArrayList<>());
        List<CheckProgress> bob = Collections.synchronizedList(new ArrayList<>());
        Thread a1 =
                new Thread(() -> shared.run("ann", LAB, "a1", specUnchecked(UNCAPPED), BaselineSteps.UNKNOWN, p -> {}));
        a1.start();
        assertTrue(await(firstRunning));
        Thread a2 = new Thread(() -> shared.run(
                "ann",
                LAB,
                "a2",
                specUnchecked(UNCAPPED.replace("10.0.0.2", "10.0.0.3")),
                BaselineSteps.UNKNOWN,
                annSecond::add));
        a2.start();
        awaitDetail(annSecond, "waiting for a measurement slot: 1st in line");
        Thread b1 = new Thread(() -> shared.run(
                "bob",
                LAB,
                "b1",
                specUnchecked(UNCAPPED.replace("10.0.0.2", "10.0.0.4")),
                BaselineSteps.UNKNOWN,
                bob::add));
        b1.start();
        awaitDetail(bob, "waiting for a measurement slot: 1st in line");
        awaitDetail(annSecond, "waiting for a measurement slot: 2nd in line");
        release.countDown();
        for (Thread t : List.of(a1, a2, b1)) {
            t.join(5000);
        }
        assertEquals(List.of("10.0.0.2", "10.0.0.4", "10.0.0.3"), iperfOrder, "bob measured before ann's second check");
        assertEquals(1, oneSlot.free());
    }

    private static void awaitDetail(List<CheckProgress> progress, String detail) {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (progress.stream().noneMatch(p -> p.detail().equals(detail)) && System.nanoTime() < until) {
            sleep(10);
        }
        assertTrue(progress.stream().anyMatch(p -> p.detail().equals(detail)), detail + " in " + progress);
    }

    private static CheckSpec specUnchecked(String yaml) {
        try {
            return spec(yaml);
        } catch (CheckSpecException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean await(CountDownLatch latch) {
        try {
            return latch.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void shouldRunFlowsTogetherEachAgainstItsOwnServerAndReadCountersAroundThem() throws Exception {
        AtomicInteger classReads = new AtomicInteger();
        String before = Fixtures.read("tc/class-htb.txt");
        String after = before.replace("Sent 22799529 bytes", "Sent 25799529 bytes");
        runtime.execHandler = (node, cmd) ->
                cmd.startsWith("iperf3") ? TBF_10 : ok(classReads.incrementAndGet() == 1 ? before : after);
        CheckResult result = runner.run(LAB, "share", spec("""
                measure:
                  - name: share
                    node: client
                    iperf3: { server: 10.0.0.2, seconds: 3, flows: { a: { dscp: EF }, b: { port: 5002 } } }
                  - { name: c, node: client, classes: { dev: eth1 }, over: share }
                expect:
                  - { value: share.flows.a.mbps, near: 10mbit, within: 15% }
                  - { value: share.flows.b.mbps, near: 10mbit, within: 15% }
                  - { value: "c.by_id[1:10].delta.bytes", near: 3000000, within: 1 }
                  - { value: "c.by_id[1:10].per_second.bits", near: 8mbit, within: 1% }
                interval: 0s
                """), BaselineSteps.UNKNOWN, progress::add);
        assertEquals(CheckResult.Status.PASSED, result.status(), result.message() + " " + result.assertions());
        assertEquals(List.of("server", "server"), runtime.iperf3Servers, "one one-off server per flow");
        List<String> clients = runtime.execLog.stream()
                .filter(l -> l.startsWith("client: iperf3"))
                .toList();
        assertEquals(2, clients.size(), runtime.execLog.toString());
        assertTrue(clients.stream().anyMatch(c -> c.endsWith("-p 5002")), clients.toString());
        assertTrue(clients.stream().anyMatch(c -> c.endsWith("-S 184")), "EF is TOS 184: " + clients);
        assertEquals("client: tc -s class show dev eth1", runtime.execLog.get(0), "counters read before the load");
        assertEquals(
                "client: tc -s class show dev eth1", runtime.execLog.get(runtime.execLog.size() - 1), "and after it");
    }

    @Test
    void shouldTakeASlotPerFlow() throws Exception {
        MeasurementSlots slots = new MeasurementSlots(2);
        CheckRunner withSlots = new CheckRunner(runtime, baselines, slots, Duration.ofMillis(50));
        AtomicReference<Double> freeDuringLoad = new AtomicReference<>(-1.0);
        runtime.execHandler = (node, cmd) -> {
            if (cmd.startsWith("iperf3")) {
                freeDuringLoad.set(slots.free());
            }
            return TBF_10;
        };
        CheckResult result = withSlots.run(LAB, "share", spec("""
                measure:
                  - { name: share, node: client, iperf3: { server: 10.0.0.2, seconds: 3, flows: { a: {}, b: {} } } }
                expect:
                  - { value: share.mbps, above: 1mbit }
                interval: 0s
                """), BaselineSteps.UNKNOWN, progress::add);
        assertEquals(CheckResult.Status.PASSED, result.status(), result.message());
        assertEquals(0.0, freeDuringLoad.get(), "two flows hold both slots");
        assertEquals(2.0, slots.free(), "and give them back");
    }

    @Test
    void shouldChargeAShapedFlowAQuarterSlotInALabWithAKernelOfItsOwn() throws Exception {
        MeasurementSlots slots = new MeasurementSlots(2);
        CheckRunner withSlots = new CheckRunner(runtime, baselines, slots, Duration.ofMillis(50));
        AtomicReference<Double> freeDuringLoad = new AtomicReference<>(-1.0);
        runtime.execHandler = (node, cmd) -> {
            if (cmd.startsWith("iperf3")) {
                freeDuringLoad.set(slots.free());
                return TBF_10;
            }
            return ok(Fixtures.read("tc/qdisc-tbf-loaded.json"));
        };
        assertEquals(
                CheckResult.Status.PASSED,
                withSlots
                        .run(LAB, "shape", spec(SHAPED), BaselineSteps.UNKNOWN, p -> {})
                        .status());
        assertTrue(freeDuringLoad.get() > 1.9, "in the host's kernel a capped flow takes its share: " + freeDuringLoad);
        assertTrue(runtime.execLog.stream().anyMatch(c -> c.contains(" -b ")), "and is capped: " + runtime.execLog);

        runtime.ownKernel = true;
        runtime.execLog.clear();
        CheckResult inUml = withSlots.run(LAB, "shape", spec(SHAPED), BaselineSteps.UNKNOWN, p -> {});
        assertEquals(CheckResult.Status.PASSED, inUml.status(), inUml.message());
        assertEquals(1.75, freeDuringLoad.get(), 1e-9, "in a kernel of its own the same flow holds a quarter slot");
        assertTrue(runtime.execLog.stream().anyMatch(c -> c.contains(" -b ")), "with the same cap: " + runtime.execLog);
        assertEquals(2.0, slots.free(), "and gives it back");
    }
}
