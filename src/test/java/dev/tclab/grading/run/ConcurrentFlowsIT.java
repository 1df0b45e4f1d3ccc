package dev.tclab.grading.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tclab.grading.spec.CheckSpec;
import dev.tclab.grading.spec.CheckSpecParser;
import dev.tclab.lab.TestTopologies;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.runtime.LabSpec;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two iperf3 flows at once through a real HTB tree (classes of 3 and 7 Mbit/s, ceil = rate), one classified by its
 * TOS byte and one by its port, each graded on its own goodput, with the classes' byte counters read over the load.
 */
@QuarkusTest
// No @RunsAlone: its two flows run through the HTB classes of 3 and 7 Mbit/s the test builds before it measures, far
// under what a core carries, so load elsewhere does not move them and they load nothing another class measures.
class ConcurrentFlowsIT {

    private static final String SHARE_CHECK = """
            measure:
              - name: share
                node: client
                iperf3:
                  server: 10.0.0.2
                  seconds: 6
                  flows:
                    a: { tos: 0x10 }
                    b: { port: 5002 }
              - { name: c, node: client, classes: { dev: eth1 }, over: share }
              - { name: link, node: client, interfaces: { dev: eth1 }, over: share }
            expect:
              - { value: share.flows.a.mbps, near: 3mbit, within: 15% }
              - { value: share.flows.b.mbps, near: 7mbit, within: 15% }
              - { value: "c.by_id[1:10].delta.bytes", above: 1mb }
              - { value: "c.by_id[1:20].per_second.bits", near: 7mbit, within: 15% }
              - { value: "c.by_id[1:30].delta.bytes", below: 64kb }
              - { value: "link.by_dev[eth1].delta.tx_bytes", above: 5mb }
            """;

    @Inject
    LabRuntime runtime;

    @Inject
    CheckRunner runner;

    private String lab;

    @AfterEach
    void stopLab() throws Exception {
        if (lab != null) {
            runtime.stop(lab);
        }
    }

    @Test
    void shouldGradeEachFlowOnItsOwnClassAndSeeTheClassCountersRise() throws Exception {
        lab = "f" + UUID.randomUUID().toString().substring(0, 8);
        runtime.start(new LabSpec(lab, TestTopologies.load("two-node"), "tester", "two-node"), (stage, detail) -> {});
        CheckSpec spec = CheckSpecParser.parse("it.md", SHARE_CHECK, 1);

        for (String command : List.of(
                "tc qdisc add dev eth1 root handle 1: htb default 30",
                "tc class add dev eth1 parent 1: classid 1:1 htb rate 11mbit",
                "tc class add dev eth1 parent 1:1 classid 1:10 htb rate 3mbit ceil 3mbit",
                "tc class add dev eth1 parent 1:1 classid 1:20 htb rate 7mbit ceil 7mbit",
                "tc class add dev eth1 parent 1:1 classid 1:30 htb rate 1mbit ceil 1mbit",
                "tc filter add dev eth1 parent 1: protocol ip prio 1 u32 match ip tos 0x10 0xfc flowid 1:10",
                "tc filter add dev eth1 parent 1: protocol ip prio 2 u32 match ip dport 5002 0xffff flowid 1:20")) {
            ExecResult done = runtime.exec(lab, "client", List.of("sh", "-c", command), Duration.ofSeconds(10));
            assertTrue(done.ok(), command + ": " + done.stderr());
        }

        CheckResult result = runner.run(lab, "share", spec, BaselineSteps.UNKNOWN, p -> {});
        assertEquals(CheckResult.Status.PASSED, result.status(), result.message() + " " + result.assertions());
        double a = result.assertions().get(0).number();
        double b = result.assertions().get(1).number();
        System.out.printf(
                "flows through HTB 3/7 mbit: a %.2f Mbit/s, b %.2f Mbit/s, class 1:20 %.2f Mbit/s over the load%n",
                a, b, result.assertions().get(3).number());
        assertThat(a).isBetween(2.5, 3.3);
        assertThat(b).isBetween(6.0, 7.3);
    }
}
