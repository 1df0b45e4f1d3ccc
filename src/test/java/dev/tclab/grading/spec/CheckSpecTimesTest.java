package dev.tclab.grading.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** How long a check's measurements run, which the page tells the learner while it measures (issue 42, item 7). */
class CheckSpecTimesTest {

    private static CheckSpec parse(String yaml) throws CheckSpecException {
        return CheckSpecParser.parse("t.md", yaml, 1);
    }

    @Test
    void shouldCountLoadsAndLonePingsButNotAPingDuringALoadNorAReadOfCounters() throws Exception {
        CheckSpec spec = parse("""
                measure:
                  - { name: up, node: client, iperf3: { server: 10.0.0.2, seconds: 6 } }
                  - { name: lat, node: client, ping: { target: 10.0.0.2, count: 20, interval: 0.2 }, during: up }
                  - { name: idle, node: client, ping: { target: 10.0.0.2, count: 10, interval: 0.5 } }
                  - { name: q, node: client, qdisc: { dev: eth1 } }
                expect:
                  - { value: up.mbps, above: 1mbit }
                retries: 2
                interval: 1s
                """);
        assertEquals(Duration.ofSeconds(11), spec.passingTime(), "6 s of upload, then 5 s of idle ping");
        assertEquals(Duration.ofSeconds(3 * 11 + 2), spec.longestTime(), "three samples, a second apart");
    }

    @Test
    void shouldCountEverySampleAStableWindowNeedsAndTheOnesAFailureResets() throws Exception {
        CheckSpec spec = parse("""
                measure:
                  - { name: up, node: client, iperf3: { server: 10.0.0.2, seconds: 4 } }
                expect:
                  - { value: up.mbps, above: 1mbit }
                retries: 1
                stable: 2
                interval: 2s
                """);
        assertEquals(Duration.ofSeconds(2 * 4 + 2), spec.passingTime());
        assertEquals(Duration.ofSeconds(4 * 4 + 3 * 2), spec.longestTime(), "pass, fail, pass, pass");
    }

    @Test
    void shouldTakeNoTimeToReadTheConfiguration() throws Exception {
        CheckSpec spec = parse("""
                measure:
                  - { name: q, node: client, qdisc: { dev: eth1 } }
                expect:
                  - { value: q.root.kind, equals: tbf }
                """);
        assertEquals(Duration.ZERO, spec.longestTime());
    }
}
