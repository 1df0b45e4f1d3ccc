package dev.tclab.stats;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.lab.FakeLabRuntime;
import dev.tclab.runtime.ProcessStream;
import dev.tclab.runtime.StreamListener;
import dev.tclab.runtime.topology.Topology;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A probe's ping process above the runtime seam: its command, its frames, its restart with the reason, its stop. */
class ProbeRunnerTest {

    private static final Topology.Probe PROBE =
            new Topology.Probe("client to server", "client", "10.9.0.2", Duration.ofMillis(200));
    private static final long T0 = 1_796_098_578_000L;

    private final ObjectMapper json = new ObjectMapper();
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
    private final List<List<String>> commands = new CopyOnWriteArrayList<>();
    private final List<StreamListener> listeners = new CopyOnWriteArrayList<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final BlockingQueue<String> frames = new LinkedBlockingQueue<>();

    private final FakeLabRuntime runtime = new FakeLabRuntime() {
        @Override
        public ProcessStream stream(String labId, String node, List<String> command, StreamListener listener) {
            commands.add(command);
            listeners.add(listener);
            return new StubProcessStream(() -> closed.set(true));
        }
    };

    private final StatsViewer viewer = new StatsViewer() {
        @Override
        public void send(String frame) {
            frames.add(frame);
        }

        @Override
        public void gone(String message) {
            frames.add("gone " + message);
        }
    };

    @AfterEach
    void shutDown() {
        executor.shutdownNow();
    }

    private ProbeRunner runner() {
        Clock clock = Clock.fixed(Instant.ofEpochMilli(T0 + 1_000), ZoneOffset.UTC);
        return new ProbeRunner("lab1", PROBE, 2, runtime, json, executor, executor, 20, clock, () -> {});
    }

    private void print(String text) {
        listeners.get(listeners.size() - 1).onOutput(text.getBytes(StandardCharsets.UTF_8));
    }

    private JsonNode nextFrame() throws Exception {
        String frame = frames.poll(5, TimeUnit.SECONDS);
        assertThat(frame).as("a frame within 5 s").isNotNull();
        return json.readTree(frame);
    }

    @Test
    void shouldRunThePlatformsPingAndSendItsRoundTripsAsOneFrame() throws Exception {
        ProbeRunner runner = runner();
        assertThat(runner.watch(viewer)).isTrue();
        assertThat(commands).containsExactly(List.of("ping", "-n", "-D", "-O", "-i", "0.200", "10.9.0.2"));
        print(
                "PING 10.9.0.2 (10.9.0.2) 56(84) bytes of data.\n[1796098578.050000] 64 bytes from 10.9.0.2: icmp_seq=1 tt");
        print("l=64 time=50.0 ms\n[1796098578.251000] 64 bytes from 10.9.0.2: icmp_seq=2 ttl=64 time=51.0 ms\n");
        JsonNode frame = nextFrame();
        assertThat(frame.path("type").asText()).isEqualTo("probe");
        assertThat(frame.path("probe").asText()).isEqualTo("client to server");
        assertThat(frame.path("index").asInt()).isEqualTo(2);
        assertThat(frame.path("from").asText()).isEqualTo("client");
        assertThat(frame.path("to").asText()).isEqualTo("10.9.0.2");
        assertThat(frame.path("points").toString())
                .isEqualTo("[{\"time\":" + T0 + ",\"rttMs\":50.0,\"lost\":false}," + "{\"time\":" + (T0 + 200)
                        + ",\"rttMs\":51.0,\"lost\":false}]");
        runner.stop();
        assertThat(closed).as("the ping ends with its last viewer").isTrue();
    }

    @Test
    void shouldTellTheViewersWhyThePingEndedAndStartItAgain() throws Exception {
        ProbeRunner runner = runner();
        runner.watch(viewer);
        print("ping: connect: Network is unreachable\n");
        listeners.get(0).onClosed("the process exited");
        JsonNode notice = nextFrame();
        assertThat(notice.path("type").asText()).isEqualTo("probe-notice");
        assertThat(notice.path("message").asText())
                .isEqualTo("The latency probe 'client to server' stopped (ping:"
                        + " connect: Network is unreachable); it starts again in 1 s.");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (commands.size() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(commands).as("started again after 1 s").hasSize(2);
        runner.stop();
    }
}
