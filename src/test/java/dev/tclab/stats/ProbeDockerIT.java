package dev.tclab.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Frame;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.testing.RunsAlone;
import dev.tclab.web.LearnerLabTest;
import dev.tclab.web.TestSocket;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Latency probes in a real lab (lesson probe-test): the platform's ping from the client's sidecar measures the real
 * link, whatever the ping in the client's PATH says, and restarts when it is killed.
 *
 * <p>This kernel has no netem (DESIGN.md), so the 50 ms of delay are a full queue: a tbf at 10 Mbit/s holding at most
 * 62 500 bytes (50 ms of data) on the client's side, kept full by a 12 Mbit/s UDP flood. A ping joins the queue's tail
 * and leaves 50 ms later.
 */
@QuarkusTest
@RunsAlone(RunsAlone.Group.MEASUREMENTS)
class ProbeDockerIT extends LearnerLabTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private final ObjectMapper json = new ObjectMapper();

    @Inject
    LabRuntime runtime;

    @Inject
    ProbeHub probes;

    @Inject
    DockerClient docker;

    ProbeDockerIT() {
        super("probe-test", Duration.ofSeconds(90));
    }

    @Test
    void shouldMeasureTheRealRoundTripBareAndBehindAFiftyMillisecondQueueWhateverTheNodesPingSays() throws Exception {
        assertThat(inClient("ping -c 1 10.9.0.2"))
                .as("the lie is live in the node")
                .contains("time=7777 ms");
        try (TestSocket stats = openStats(cookie)) {
            List<JsonNode> bare = points(stats, 4_000);
            double bareMs = median(bare);

            sh("client", "tc qdisc add dev eth1 root tbf rate 10mbit burst 2kb limit 62500");
            CompletableFuture<ExecResult> flood = CompletableFuture.supplyAsync(() -> {
                try {
                    return runtime.exec(
                            labId,
                            "client",
                            List.of("iperf3", "-c", "10.9.0.2", "-u", "-b", "12M", "-t", "9"),
                            Duration.ofSeconds(30));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            points(stats, 2_000); // the queue fills
            List<JsonNode> queued = points(stats, 5_000);
            double queuedMs = median(queued);
            ExecResult floodResult = flood.get(40, TimeUnit.SECONDS);
            assertTrue(floodResult.ok(), "the flood ran: " + floodResult.stdout() + floodResult.stderr());
            long lost = queued.stream().filter(p -> p.path("lost").asBoolean()).count();
            System.out.printf(
                    "probe round trips: bare median %.3f ms (%d pings), behind a 50 ms queue median %.1f ms"
                            + " (%d pings, %d lost)%n",
                    bareMs, bare.size(), queuedMs, queued.size(), lost);

            assertThat(bare.size()).as("about 5 pings a second for 4 s").isBetween(12, 24);
            assertThat(bareMs).as("a bare veth link, not the lie's 7777 ms").isLessThan(5.0);
            assertThat(queued.size()).as("pings in 5 s").isBetween(15, 30);
            assertThat(queuedMs).as("a full 50 ms queue").isBetween(40.0, 70.0);
            for (JsonNode point : bare) {
                assertThat(point.path("rttMs").asDouble())
                        .as("no lie: " + point)
                        .isLessThan(1000.0);
            }
        }
    }

    @Test
    void shouldRestartAKilledProbeTellThePageAndStopWhenNobodyWatches() throws Exception {
        int before = probes.probeCount();
        try (TestSocket stats = openStats(cookie)) {
            points(stats, 1_000);
            assertEquals(before + 1, probes.probeCount(), "one ping for the lab's one probe");
            sh("client", "pkill -x ping");
            JsonNode notice = null;
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (notice == null && System.nanoTime() < deadline) {
                JsonNode frame = json.readTree(stats.nextText(WAIT));
                if ("probe-notice".equals(frame.path("type").asText())) {
                    notice = frame;
                }
            }
            assertTrue(notice != null, "the page was told the probe stopped");
            assertEquals("client to server", notice.path("probe").asText());
            assertThat(notice.path("message").asText()).contains("starts again in 1 s");
            assertThat(points(stats, 3_000))
                    .as("round trips again after the restart")
                    .isNotEmpty();
        }
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (probes.probeCount() > before && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertEquals(before, probes.probeCount(), "the probe stops when nobody watches");
        // The stream's process is ended in the background once the stream closes: wait for that, not a moment.
        String left = "";
        deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline
                && !(left = runtime.exec(
                                        labId,
                                        "client",
                                        List.of("sh", "-c", "pgrep -x ping || echo none"),
                                        Duration.ofSeconds(10))
                                .stdout())
                        .contains("none")) {
            Thread.sleep(100);
        }
        assertThat(left).as("no ping left in the sidecar").contains("none");
    }

    /** The probe's points whose ping left during the next {@code millis} of frames. */
    private List<JsonNode> points(TestSocket stats, long millis) throws Exception {
        List<JsonNode> points = new ArrayList<>();
        long start = -1;
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode frame = json.readTree(stats.nextText(WAIT));
            if (!"probe".equals(frame.path("type").asText())) {
                continue;
            }
            assertEquals("client to server", frame.path("probe").asText());
            assertEquals(0, frame.path("index").asInt());
            assertEquals("client", frame.path("from").asText());
            assertEquals("10.9.0.2", frame.path("to").asText());
            for (JsonNode point : frame.path("points")) {
                long time = point.path("time").asLong();
                if (start < 0) {
                    start = time;
                }
                if (time >= start + millis) {
                    return points;
                }
                points.add(point);
            }
        }
        throw new AssertionError("no probe frames for " + millis + " ms within " + WAIT);
    }

    private static double median(List<JsonNode> points) {
        List<Double> rtts = points.stream()
                .filter(p -> !p.path("lost").asBoolean())
                .map(p -> p.path("rttMs").asDouble())
                .sorted()
                .toList();
        assertThat(rtts).as("round trips").isNotEmpty();
        return rtts.get(rtts.size() / 2);
    }

    private void sh(String node, String script) throws Exception {
        ExecResult result = runtime.exec(labId, node, List.of("sh", "-c", script), Duration.ofSeconds(30));
        assertTrue(result.ok(), script + " failed: " + result.stdout() + result.stderr());
    }

    /** Runs a script in the client node itself, with its own PATH (and so its lying ping). */
    private String inClient(String script) throws Exception {
        String exec = docker.execCreateCmd("tclab-" + labId + "-client")
                .withCmd("sh", "-c", script)
                .withAttachStdout(true)
                .withAttachStderr(true)
                .exec()
                .getId();
        StringBuilder out = new StringBuilder();
        docker.execStartCmd(exec)
                .exec(new ResultCallback.Adapter<Frame>() {
                    @Override
                    public void onNext(Frame frame) {
                        synchronized (out) {
                            out.append(new String(frame.getPayload(), StandardCharsets.UTF_8));
                        }
                    }
                })
                .awaitCompletion(30, TimeUnit.SECONDS);
        synchronized (out) {
            return out.toString();
        }
    }
}
