package dev.tclab.grading.selftest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.grading.evaluate.AssertionResult;
import dev.tclab.grading.evaluate.FlowMiss;
import dev.tclab.grading.evaluate.FlowRoute;
import dev.tclab.grading.run.BaselineSteps;
import dev.tclab.grading.run.CheckResult;
import dev.tclab.grading.run.CheckRunner;
import dev.tclab.grading.spec.CheckSpec;
import dev.tclab.grading.spec.CheckSpecParser;
import dev.tclab.grading.spec.SpecCheckValidator;
import dev.tclab.lab.TestTopologies;
import dev.tclab.lesson.Lesson;
import dev.tclab.lesson.LessonLoader;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.runtime.LabSpec;
import dev.tclab.testing.RunsAlone;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * Issue 40 on the real engine: the outside author's HTB lesson (src/test/resources/semantics/routes). With the
 * solution's tree, the check whose flow gets the port the filter matches passes; the same check without a port fails,
 * and its failed expectation says the flow went through the default class 1:20 on its random destination port.
 */
@QuarkusTest
// Shared: its flows are capped at twice the check's 12 Mbit/s bound and shaped by the lesson's HTB at 10 Mbit/s.
@RunsAlone(value = RunsAlone.Group.MEASUREMENTS, hold = RunsAlone.Hold.SHARED)
class FlowRouteIT {

    /**
     * A download: the server's node sends it, through the tree on its eth1 that sends source port 5201 to 1:10. The
     * flow's server listens on a random port, so it leaves through the default 1:20.
     */
    private static final String DOWNLOAD_CHECK = """
            measure:
              - { name: down, node: client, iperf3: { server: 10.0.0.2, seconds: 3, reverse: true } }
              - { name: c, node: server, classes: { dev: eth1 }, over: down }
            expect:
              - { value: "c.by_id[1:10].delta.bytes", above: 1mb }
            retries: 0
            """;

    @Inject
    LessonSelfTest selfTest;

    @Inject
    LabRuntime runtime;

    @Inject
    CheckRunner runner;

    @Test
    void shouldSayTheUnportedFlowWentThroughTheDefaultClassWhileThePortedOnePasses() throws Exception {
        Lesson lesson = new LessonLoader(new SpecCheckValidator())
                .load(Path.of("src/test/resources/semantics/routes"), "semantics/routes");
        assertThat(lesson.problems()).isEmpty();
        Map<String, LessonSelfTest.Outcome> outcomes = new ConcurrentHashMap<>();
        selfTest.run(lesson, 1, true, line -> {}, o -> outcomes.put(o.check(), o));

        outcomes.values()
                .forEach(o -> System.out.println("FlowRouteIT " + o.check() + ": before "
                        + o.before().duration().toMillis() + " ms, after "
                        + o.after().duration().toMillis() + " ms; " + o.after().message()));
        CheckResult ported = outcomes.get("ported").after();
        assertThat(ported.passed()).as(ported.message()).isTrue();
        FlowRoute portedRoute = ported.flows().get(0);
        assertThat(portedRoute.serverPort()).isEqualTo(5201);
        assertThat(portedRoute.leafClassesOn("eth1"))
                .extracting(FlowRoute.Counted::id)
                .containsExactly("1:10");

        CheckResult unported = outcomes.get("unported").after();
        assertThat(unported.passed()).isFalse();
        FlowMiss miss = unported.assertions().stream()
                .map(AssertionResult::reason)
                .filter(r -> r != null && r.flow() != null)
                .map(r -> r.flow())
                .findFirst()
                .orElseThrow(() -> new AssertionError("no expectation says where the flow went: " + unported));
        assertThat(miss.serverPort()).isBetween(20000, 29999);
        assertThat(miss.sentence())
                .isEqualTo("Your flow went through class 1:20 (the default), not 1:10: no filter matched its TCP "
                        + "packets to destination port " + miss.serverPort() + ".");
        assertThat(unported.message())
                .containsPattern("is 0 \\((\\d+) borrows before the load, \\1 borrows after it\\)")
                .endsWith(". " + miss.sentence());
        FlowRoute route = unported.flows().get(0);
        assertThat(route.clientPort()).isNotNull();
        assertThat(route.counted())
                .extracting(c -> c.what() + " " + c.id())
                .contains("qdisc 1:", "class 1:1", "class 1:20")
                .doesNotContain("class 1:10");
        assertThat(route.counted())
                .allSatisfy(c -> assertThat(c.bytes()).isBetween(route.bytes(), route.bytes() * 3 / 2));
    }

    /** A reverse flow is traced on the server's node, which sends it: the sentence names its source port. */
    @Test
    void shouldSayWhereADownloadWentOnTheServersNode() throws Exception {
        String lab = "r" + UUID.randomUUID().toString().substring(0, 8);
        runtime.start(new LabSpec(lab, TestTopologies.load("two-node"), "tester", "two-node"), (stage, detail) -> {});
        try {
            for (String command : List.of(
                    "tc qdisc replace dev eth1 root handle 1: htb default 20",
                    "tc class add dev eth1 parent 1: classid 1:1 htb rate 10mbit",
                    "tc class add dev eth1 parent 1:1 classid 1:10 htb rate 2mbit ceil 10mbit",
                    "tc class add dev eth1 parent 1:1 classid 1:20 htb rate 8mbit ceil 10mbit",
                    "tc filter add dev eth1 parent 1: protocol ip prio 1 u32 match ip sport 5201 0xffff flowid 1:10")) {
                ExecResult ran = runtime.exec(lab, "server", List.of("sh", "-c", command), Duration.ofSeconds(10));
                assertThat(ran.ok()).as(command + ": " + ran.stderr()).isTrue();
            }
            CheckSpec spec = CheckSpecParser.parse("it.md", DOWNLOAD_CHECK, 1);

            CheckResult result = runner.run(lab, "down", spec, BaselineSteps.UNKNOWN, p -> {});

            assertThat(result.passed()).as(result.message()).isFalse();
            FlowRoute route = result.flows().get(0);
            assertThat(route.node()).isEqualTo("server");
            assertThat(route.reverse()).isTrue();
            assertThat(route.leafClassesOn("eth1"))
                    .extracting(FlowRoute.Counted::id)
                    .containsExactly("1:20");
            FlowMiss miss = result.assertions().get(0).reason().flow();
            assertThat(miss).as(result.message()).isNotNull();
            assertThat(miss.sentence())
                    .isEqualTo("Your flow went through class 1:20 (the default), not 1:10: no filter matched its TCP "
                            + "packets from source port " + route.serverPort() + ".");
        } finally {
            runtime.stop(lab);
        }
    }
}
