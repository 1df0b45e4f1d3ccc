package dev.tclab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.tclab.http.SocketCloseCodes;
import dev.tclab.lab.RetainedHeap;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.testing.RunsAlone;
import dev.tclab.web.LearnerLabTest;
import dev.tclab.web.TestSocket;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Live statistics of a real lab: counters and rates during an iperf3 run, sampler restarts, access rules. */
@QuarkusTest
// Shared: it floods (UDP at line rate into a 1 Mbit/s tbf for 4 s, 200 MB into a sampler's output), which would skew
// an exclusive class's figures, and it holds only what load cannot move: its sampler's rates as a ratio to iperf3's
// of the same 40 Mbit/s tbf flow, bounded heap and frames, notices.
@RunsAlone(value = RunsAlone.Group.MEASUREMENTS, hold = RunsAlone.Hold.SHARED)
class StatsDockerIT extends LearnerLabTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private final ObjectMapper json = new ObjectMapper();

    @Inject
    LabRuntime runtime;

    @Inject
    StatsHub hub;

    StatsDockerIT() {
        super("ws-test", Duration.ofSeconds(90));
    }

    @Test
    void shouldMeasureTheShapedRateWithin10PercentOfIperf3() throws Exception {
        sh("client", "tc qdisc add dev eth1 root tbf rate 40mbit burst 32kb latency 100ms");
        sh("server", "iperf3 -s -D -1");
        try (TestSocket stats = openStats(cookie)) {
            List<JsonNode> samples = new ArrayList<>();
            JsonNode before = nextTbfSample(stats, samples);
            long start = before.path("time").asLong();
            ExecResult iperf = runtime.exec(
                    labId,
                    "client",
                    List.of("iperf3", "-c", "10.9.0.2", "-C", "cubic", "-t", "8", "-J"),
                    Duration.ofSeconds(40));
            assertTrue(iperf.ok(), "iperf3 failed: " + iperf.stdout() + iperf.stderr());
            double iperfBits = json.readTree(iperf.stdout())
                    .path("end")
                    .path("sum_received")
                    .path("bits_per_second")
                    .asDouble();

            JsonNode last = nextTbfSample(stats, samples);
            while (last.path("time").asLong() < start + 9_000) {
                last = nextTbfSample(stats, samples);
            }
            assertTrue(
                    tbf(last).path("counters").path("bytes").asLong()
                            > tbf(before).path("counters").path("bytes").asLong() + 10_000_000,
                    "the byte counter rose by the test's traffic");
            // The steady part of the run skips the first 3 s (slow start) and anything after it ended.
            double qdiscRate =
                    steadyMean(samples, start, s -> tbf(s).path("rates").path("bitsPerSecond"));
            double linkRate = steadyMean(
                    samples,
                    start,
                    s -> device(s, "eth1").path("link").path("rates").path("txBitsPerSecond"));
            System.out.printf(
                    "stats vs iperf3: qdisc %.0f bit/s, interface %.0f bit/s, iperf3 %.0f bit/s%n",
                    qdiscRate, linkRate, iperfBits);
            for (double measured : new double[] {qdiscRate, linkRate}) {
                double ratio = measured / iperfBits;
                assertTrue(
                        ratio > 0.9 && ratio < 1.1,
                        "tclab measured " + measured + " bit/s, iperf3 " + iperfBits + " bit/s (ratio " + ratio + ")");
            }
        }
    }

    @Test
    void shouldRestartAKilledSamplerAndSayso() throws Exception {
        try (TestSocket stats = openStats(cookie)) {
            nextSample(stats, "client");
            // The bracket keeps pkill's own shell (whose command line holds the pattern) from matching.
            sh("client", "pkill -f '[s]ample %s'");
            long deadline = System.nanoTime() + WAIT.toNanos();
            boolean told = false;
            while (!told && System.nanoTime() < deadline) {
                JsonNode frame = json.readTree(stats.nextText(WAIT));
                told = "notice".equals(frame.path("type").asText())
                        && "client".equals(frame.path("node").asText())
                        && frame.path("message").asText().contains("sampler restarted");
            }
            assertTrue(told, "the viewers were told the sampler restarted");
            nextSample(stats, "client");
        }
    }

    /** Issue 10, row 3: 200 MB written to the sampler's stdout cost 300 MB of heap and one 200 MB frame. */
    @Test
    void shouldRestartASamplerFloodedWithOutputTellThePageAndKeepTheHeapBounded() throws Exception {
        try (TestSocket stats = openStats(cookie)) {
            nextSample(stats, "client");
            long before = RetainedHeap.bytes();
            // In the background, so the exec returns; the writer blocks once nobody reads the sampler's output.
            sh(
                    "client",
                    "p=$(pgrep -f '[s]ample %s' | head -n 1) && { head -c 200000000 /dev/zero | tr '\\0' x"
                            + " > /proc/$p/fd/1; } </dev/null >/dev/null 2>&1 &");
            long deadline = System.nanoTime() + WAIT.toNanos();
            String notice = null;
            int longest = 0;
            while (notice == null && System.nanoTime() < deadline) {
                String text = stats.nextText(WAIT);
                longest = Math.max(longest, text.length());
                JsonNode frame = json.readTree(text);
                if ("notice".equals(frame.path("type").asText())
                        && "client".equals(frame.path("node").asText())) {
                    notice = frame.path("message").asText();
                }
            }
            assertTrue(
                    notice != null && notice.contains("more than 2 MiB in one round"), "the page was told: " + notice);
            nextSample(stats, "client");
            long retained = RetainedHeap.bytes() - before;
            System.out.printf(
                    "200 MB to the sampler's stdout: retained heap +%d MiB, longest frame %d chars%n",
                    RetainedHeap.mib(retained), longest);
            assertTrue(longest < 64 * 1024, "no flood frame reached the page: " + longest);
            assertTrue(retained < 32L << 20, "retained heap below 32 MiB: " + retained);
        }
    }

    /** Issue 10, row 6: tbf with limit 600mb and a UDP flood held 84 MB of kernel memory, kept after the sender ended. */
    @Test
    void shouldRemoveAQueueHoldingMoreThanTheCeilingAndTellThePage() throws Exception {
        sh("client", "tc qdisc add dev eth1 root tbf rate 1mbit burst 32kb limit 600mb");
        sh("server", "iperf3 -s -D -1");
        try (TestSocket stats = openStats(cookie)) {
            nextSample(stats, "client");
            // One UDP socket queues at most its send buffer; 16 of 4 MB each queued 43 MB here. iperf3 may then wait
            // for its control connection, stuck behind the queue until the reset: timeout(1) ends it either way.
            runtime.exec(
                    labId,
                    "client",
                    List.of(
                            "timeout",
                            "10",
                            "iperf3",
                            "-c",
                            "10.9.0.2",
                            "-u",
                            "-b",
                            "2G",
                            "-t",
                            "4",
                            "-P",
                            "16",
                            "-w",
                            "4M"),
                    Duration.ofSeconds(30));
            long deadline = System.nanoTime() + WAIT.toNanos();
            JsonNode reset = null;
            while (reset == null && System.nanoTime() < deadline) {
                JsonNode frame = json.readTree(stats.nextText(WAIT));
                if ("backlog-reset".equals(frame.path("type").asText())) {
                    reset = frame;
                }
            }
            assertTrue(reset != null, "the page was told of the reset");
            System.out.println("backlog reset: " + reset);
            assertEquals("client", reset.path("node").asText());
            assertEquals("eth1", reset.path("dev").asText());
            long ceiling = reset.path("ceilingBytes").asLong();
            assertEquals(32L << 20, ceiling, "the default ceiling");
            assertTrue(reset.path("backlogBytes").asLong() > ceiling, reset.toString());
            assertTrue(reset.path("message").asText().contains("tclab removed that root qdisc"), reset.toString());
            JsonNode root = json.readTree(
                            sh("client", "tc -s -j qdisc show dev eth1").stdout())
                    .path(0);
            assertTrue(root.path("backlog").asLong() < ceiling, "backlog back under the ceiling: " + root);
            assertTrue(!"tbf".equals(root.path("kind").asText()), "the tbf was removed: " + root);
        }
    }

    @Test
    void shouldRefuseOtherLearnersAndStopSamplersNobodyWatches() throws Exception {
        try (TestSocket stranger = openStats(learnerIds.sign(learnerIds.newId()))) {
            assertEquals((int) SocketCloseCodes.LAB_NOT_FOUND, stranger.awaitClose(WAIT));
        }
        int before = hub.samplerCount();
        try (TestSocket first = openStats(cookie);
                TestSocket second = openStats(cookie)) {
            nextSample(first, "server");
            nextSample(second, "server");
            assertEquals(before + 2, hub.samplerCount(), "one sampler per node, shared by both viewers");
        }
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (hub.samplerCount() > before && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertEquals(before, hub.samplerCount(), "samplers stop when nobody watches");
        String processes = sh("client", "ps -eo args").stdout();
        assertTrue(
                !processes.contains("sample %s") && !processes.contains("-batch"),
                "the sampler and its tc ended in the node:\n" + processes);
    }

    @Test
    void shouldListAFilterAttachedToAClassUnderThatClass() throws Exception {
        sh(
                "client",
                "tc qdisc add dev eth1 root handle 1: htb default 20"
                        + " && tc class add dev eth1 parent 1: classid 1:1 htb rate 50mbit"
                        + " && tc class add dev eth1 parent 1:1 classid 1:10 htb rate 20mbit"
                        + " && tc class add dev eth1 parent 1:1 classid 1:20 htb rate 30mbit"
                        + " && tc filter add dev eth1 parent 1:1 protocol ip prio 2 u32 match ip dport 80 0xffff flowid 1:10");
        try (TestSocket stats = openStats(cookie)) {
            JsonNode filter = awaitSample(stats, "client", sample -> {
                for (JsonNode f : device(sample, "eth1").path("filters")) {
                    if ("1:1".equals(f.path("parent").asText())) {
                        return f;
                    }
                }
                return null;
            });
            assertEquals("1:10", filter.path("flowid").asText());
            assertEquals(2, filter.path("pref").asInt());
        }
    }

    @Test
    void shouldSampleOnlyTheInterfacesTheLabNames() throws Exception {
        // ws-test's server shows [eth1, eth2, "ifb*"]: a new ifb device joins, a new veth pair does not.
        sh(
                "server",
                "ip link add ifb0 type ifb && ip link set ifb0 up"
                        + " && ip link add x0 type veth peer name x1 && ip link set x0 up");
        try (TestSocket stats = openStats(cookie)) {
            JsonNode sample =
                    awaitSample(stats, "server", s -> device(s, "ifb0").isMissingNode() ? null : s);
            List<String> devices = new ArrayList<>();
            sample.path("devices").forEach(d -> devices.add(d.path("dev").asText()));
            assertEquals(
                    List.of("eth1", "eth2", "ifb0"), devices.stream().sorted().toList());
        }
    }

    /** Issue 14, point 7: a reload showed 3 samples where the page had drawn 351. */
    @Test
    void shouldSendTheLabsRecentSamplesFirstWhenAPageComesBack() throws Exception {
        List<Long> seen = new ArrayList<>();
        try (TestSocket stats = openStats(cookie)) {
            for (int i = 0; i < 5; i++) {
                seen.add(nextSample(stats, "client").path("time").asLong());
            }
        }
        awaitNoSamplers();
        try (TestSocket again = openStats(cookie)) {
            JsonNode history = json.readTree(again.nextText(WAIT));
            assertEquals("history", history.path("type").asText(), "the first frame is the history");
            List<Long> clientTimes = new ArrayList<>();
            for (JsonNode sample : history.path("samples")) {
                assertEquals("sample", sample.path("type").asText());
                if ("client".equals(sample.path("node").asText())) {
                    clientTimes.add(sample.path("time").asLong());
                }
            }
            assertTrue(
                    clientTimes.containsAll(seen),
                    "the history holds the samples sent before: " + seen + " in " + clientTimes);
            assertEquals(clientTimes.stream().sorted().toList(), clientTimes, "oldest first");
            long next = nextSample(again, "client").path("time").asLong();
            assertTrue(next > clientTimes.get(clientTimes.size() - 1), "live samples follow the history");
        }
    }

    private void awaitNoSamplers() throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (hub.samplerCount() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertEquals(0, hub.samplerCount(), "the samplers stopped when the page went");
    }

    /** The mean of a rate over the steady part of an 8 s run that began at {@code start}: 3 s to 8 s. */
    private static double steadyMean(List<JsonNode> samples, long start, Function<JsonNode, JsonNode> rate) {
        double sum = 0;
        int count = 0;
        for (JsonNode sample : samples) {
            long t = sample.path("time").asLong();
            JsonNode value = rate.apply(sample);
            if (t >= start + 3_000 && t <= start + 8_000 && value.isNumber()) {
                sum += value.asDouble();
                count++;
            }
        }
        assertTrue(count >= 3, "at least 3 samples in the steady part, got " + count);
        return sum / count;
    }

    /** The first non-null answer of {@code found} for the node's samples, within {@link #WAIT}. */
    private JsonNode awaitSample(TestSocket stats, String node, Function<JsonNode, JsonNode> found) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            last = nextSample(stats, node);
            JsonNode answer = found.apply(last);
            if (answer != null) {
                return answer;
            }
        }
        throw new AssertionError("no matching sample of " + node + " within " + WAIT + "; the last was " + last);
    }

    private ExecResult sh(String node, String script) throws Exception {
        ExecResult result = runtime.exec(labId, node, List.of("sh", "-c", script), Duration.ofSeconds(30));
        assertTrue(result.ok(), script + " failed: " + result.stdout() + result.stderr());
        return result;
    }

    private static JsonNode nextSample(TestSocket stats, String node) throws Exception {
        return StatsFramesRead.nextSample(stats, node, WAIT);
    }

    private JsonNode nextTbfSample(TestSocket stats, List<JsonNode> samples) throws Exception {
        while (true) {
            JsonNode sample = nextSample(stats, "client");
            if (!tbf(sample).isMissingNode()) {
                samples.add(sample);
                return sample;
            }
        }
    }

    private static JsonNode tbf(JsonNode sample) {
        for (JsonNode qdisc : device(sample, "eth1").path("qdiscs")) {
            if ("tbf".equals(qdisc.path("kind").asText())) {
                return qdisc;
            }
        }
        return MissingNode.getInstance();
    }

    private static JsonNode device(JsonNode sample, String dev) {
        return StatsFramesRead.device(sample, dev);
    }
}
