package dev.tclab.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.dockerjava.api.DockerClient;
import com.sun.management.OperatingSystemMXBean;
import dev.tclab.learner.LearnerIds;
import dev.tclab.runtime.RuntimeAdapter;
import dev.tclab.web.TestLabs;
import dev.tclab.web.TestSocket;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.common.annotation.Identifier;
import jakarta.inject.Inject;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Measurements for docs/BENCHMARKS.md ("Terminal and statistics"), not tests: runs only with
 * {@code mvn -B -Pbenchmark verify -Dit.test=TerminalStatsBenchmark}; prints BENCH lines.
 */
@Tag("benchmark")
@QuarkusTest
class TerminalStatsBenchmark {

    private static final int KEYSTROKES = 400;
    private static final int LABS = 20;

    @TestHTTPResource("/")
    URI base;

    @Inject
    LearnerIds learnerIds;

    @Inject
    DockerClient docker;

    @Inject
    @Identifier("uml")
    RuntimeAdapter uml;

    @Test
    void keystrokeToEchoLatency() throws Exception {
        String cookie = learnerIds.sign(learnerIds.newId());
        String labId = TestLabs.startAndAwait("ws-test", cookie, Duration.ofSeconds(90));
        try {
            long[] floor = directExecLatencies(labId);
            long[] app = appLatencies(labId, cookie);
            long[] floorAgain = directExecLatencies(labId);
            long[] floorAll = concat(floor, floorAgain);
            System.out.printf(
                    "BENCH keystroke-to-echo through the app (ms): p50 %.2f p95 %.2f p99 %.2f%n",
                    ms(app, 50), ms(app, 95), ms(app, 99));
            System.out.printf(
                    "BENCH keystroke-to-echo direct docker exec attach, TTY (ms): p50 %.2f p95 %.2f p99 %.2f%n",
                    ms(floorAll, 50), ms(floorAll, 95), ms(floorAll, 99));
            System.out.printf(
                    "BENCH ratio app/floor: p50 %.2f p99 %.2f%n",
                    ms(app, 50) / ms(floorAll, 50), ms(app, 99) / ms(floorAll, 99));
        } finally {
            TestLabs.stop(labId, cookie);
        }
    }

    /**
     * The same on a User-Mode Linux lab (uml-test): through the app's terminal socket, against its floor, the same
     * login shell through the lab's agent asked of the UML runtime in this JVM (no socket, no app in between), before
     * and after. {@code -Dit.test=TerminalStatsBenchmark#keystrokeToEchoLatencyOnUml} runs it alone.
     */
    @Test
    void keystrokeToEchoLatencyOnUml() throws Exception {
        String cookie = learnerIds.sign(learnerIds.newId());
        String labId = TestLabs.startAndAwait("uml-test", cookie, Duration.ofSeconds(120));
        try {
            long[] floor = RuntimeShell.echoNanos(uml, labId, "client", KEYSTROKES / 2);
            long[] app = appLatencies(labId, cookie);
            long[] floorAll = concat(floor, RuntimeShell.echoNanos(uml, labId, "client", KEYSTROKES / 2));
            System.out.printf(
                    "BENCH UML keystroke-to-echo through the app (ms): p50 %.2f p95 %.2f p99 %.2f%n",
                    ms(app, 50), ms(app, 95), ms(app, 99));
            System.out.printf(
                    "BENCH UML keystroke-to-echo through the lab's agent, no app (ms): p50 %.2f p95 %.2f p99 %.2f%n",
                    ms(floorAll, 50), ms(floorAll, 95), ms(floorAll, 99));
            System.out.printf(
                    "BENCH UML ratio app/floor: p50 %.2f p99 %.2f%n",
                    ms(app, 50) / ms(floorAll, 50), ms(app, 99) / ms(floorAll, 99));
        } finally {
            TestLabs.stop(labId, cookie);
        }
    }

    @Test
    void appCpuPerLabWith20WatchedLabsAt1Hz() throws Exception {
        List<String> cookies = new ArrayList<>();
        List<String> labs = new ArrayList<>();
        List<TestSocket> viewers = new ArrayList<>();
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        try {
            for (int i = 0; i < LABS; i++) {
                cookies.add(learnerIds.sign(learnerIds.newId()));
                labs.add(TestLabs.startAndAwait("ws-test", cookies.get(i), Duration.ofSeconds(180)));
            }
            Thread.sleep(10_000);
            long labsCpuBefore = labContainersCpuNanos(labs);
            double idle = cpuCoresOver(os, Duration.ofSeconds(30));
            double labsIdle = (labContainersCpuNanos(labs) - labsCpuBefore) / 30e9;
            for (int i = 0; i < LABS; i++) {
                viewers.add(TestSocket.stats(base, labs.get(i), cookies.get(i)));
            }
            Thread.sleep(10_000);
            labsCpuBefore = labContainersCpuNanos(labs);
            double watched = cpuCoresOver(os, Duration.ofSeconds(60));
            double labsWatched = (labContainersCpuNanos(labs) - labsCpuBefore) / 60e9;
            for (TestSocket viewer : viewers) {
                assertTrue(viewer.nextText(Duration.ofSeconds(5)).contains("\"sample\""), "samples flow");
            }
            System.out.printf(
                    "BENCH app CPU, %d labs running, nobody watching: %.2f %% of one core%n", LABS, idle * 100);
            System.out.printf(
                    "BENCH app CPU, %d labs watched at 1 Hz (2 nodes each): %.2f %% of one core in total, "
                            + "%.3f %% per lab (%.3f %% per lab above idle)%n",
                    LABS, watched * 100, watched * 100 / LABS, (watched - idle) * 100 / LABS);
            System.out.printf(
                    "BENCH lab containers' CPU (their samplers): nobody watching %.2f %% of one "
                            + "core, watched %.2f %%, so %.3f %% per lab for its samplers%n",
                    labsIdle * 100, labsWatched * 100, (labsWatched - labsIdle) * 100 / LABS);
        } finally {
            viewers.forEach(TestSocket::close);
            for (int i = 0; i < labs.size(); i++) {
                TestLabs.stop(labs.get(i), cookies.get(i));
            }
        }
    }

    private long labContainersCpuNanos(List<String> labIds) throws java.io.IOException {
        long total = 0;
        for (String lab : labIds) {
            total += LabContainers.cpuNanos(docker, Map.of("tclab.lab", lab));
        }
        return total;
    }

    /** Cores used by this JVM (app and test client) over the period. */
    private static double cpuCoresOver(OperatingSystemMXBean os, Duration period) throws InterruptedException {
        long cpuBefore = os.getProcessCpuTime();
        long wallBefore = System.nanoTime();
        Thread.sleep(period.toMillis());
        return (double) (os.getProcessCpuTime() - cpuBefore) / (System.nanoTime() - wallBefore);
    }

    /** One key at a time through the terminal socket; the time until the shell's echo arrives. */
    private long[] appLatencies(String labId, String cookie) throws Exception {
        try (TestSocket socket = TestSocket.open(
                base, "/ws/labs/" + labId + "/nodes/client/terminal", cookie, TestSocket.originOf(base))) {
            socket.awaitOutput(out -> out.contains("@client"), Duration.ofSeconds(20));
            Thread.sleep(500);
            return SocketEcho.latencies(socket, KEYSTROKES, 0);
        }
    }

    /** The floor: the same shell started by a direct docker-java exec attach with a TTY, no app in between. */
    private long[] directExecLatencies(String labId) throws Exception {
        String container = docker.listContainersCmd()
                .withLabelFilter(Map.of("tclab.lab", labId, "tclab.node", "client"))
                .exec()
                .get(0)
                .getId();
        return ExecAttachEcho.latencies(docker, container, KEYSTROKES / 2, 0);
    }

    private static long[] concat(long[] a, long[] b) {
        long[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    private static double ms(long[] nanos, int percentile) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        int index = Math.min(sorted.length - 1, (int) Math.ceil(percentile / 100.0 * sorted.length) - 1);
        return sorted[Math.max(0, index)] / 1e6;
    }
}
