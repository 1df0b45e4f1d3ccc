package dev.tclab.stats;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.testing.RunsAlone;
import dev.tclab.web.LearnerLabTest;
import dev.tclab.web.TestSocket;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Live statistics of a lab with a kernel of its own (User-Mode Linux), where the nodes are namespaces inside that
 * kernel: an upload through interfaces that have no qdisc (noqueue, a lab's default) still moves the interface's
 * own counters, which the throughput plot follows (issue 42, item 1: the plot read "No traffic yet." during one).
 */
@QuarkusTest
// Shared: it holds only that the counters move, which load cannot take away.
@RunsAlone(value = RunsAlone.Group.MEASUREMENTS, hold = RunsAlone.Hold.SHARED)
class UmlStatsIT extends LearnerLabTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    LabRuntime runtime;

    UmlStatsIT() {
        super("uml-test", Duration.ofSeconds(180));
    }

    @Test
    void anUploadWithNoQdiscMovesTheInterfacesOwnCounters() throws Exception {
        sh("server", "iperf3 -s -D -1");
        try (TestSocket stats = openStats(cookie)) {
            JsonNode idle = StatsFramesRead.nextSample(stats, "client", WAIT);
            JsonNode eth1 = StatsFramesRead.device(idle, "eth1");
            assertTrue(!eth1.isMissingNode(), "the client's eth1 is sampled: " + idle);
            for (JsonNode qdisc : eth1.path("qdiscs")) {
                assertTrue(
                        "noqueue".equals(qdisc.path("kind").asText()),
                        "eth1 has no qdisc of its own, as the lab made it: " + eth1);
            }
            ExecResult upload = runtime.exec(
                    labId,
                    "client",
                    List.of("iperf3", "-c", "10.9.0.2", "-t", "6", "-b", "20M"),
                    Duration.ofSeconds(40));
            assertTrue(upload.ok(), "iperf3 failed: " + upload.stdout() + upload.stderr());
            // The samples taken while it ran are queued on the socket: the fastest one the plot drew.
            double fastest = 0;
            JsonNode last = null;
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (fastest < 5e6 && System.nanoTime() < deadline) {
                last = StatsFramesRead.nextSample(stats, "client", WAIT);
                JsonNode rate = StatsFramesRead.device(last, "eth1")
                        .path("link")
                        .path("rates")
                        .path("txBitsPerSecond");
                fastest = Math.max(fastest, rate.asDouble(0));
            }
            assertTrue(
                    fastest >= 5e6,
                    "the client's eth1 sent at 5 Mbit/s or more (iperf3 sent 20) in its own counters, read " + fastest
                            + " bit/s at most; the last sample: " + last);
        }
    }

    private void sh(String node, String script) throws Exception {
        ExecResult result = runtime.exec(labId, node, List.of("sh", "-c", script), Duration.ofSeconds(30));
        assertTrue(result.ok(), script + " failed: " + result.stdout() + result.stderr());
    }
}
