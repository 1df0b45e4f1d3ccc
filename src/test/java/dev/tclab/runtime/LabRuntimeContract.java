package dev.tclab.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tclab.lab.TestTopologies;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What every {@link LabRuntime} must do, whatever runs the containers: start (progress in order, every node
 * running), wiring (the topology's interface names), exec (output, exit code, timeout), stream (output, input, end,
 * close), stop (idempotent), status, reap and expiry. Each runtime runs it against its engine: Docker for real
 * ({@code DockerLabRuntimeContractIT}), Kubernetes on the fabric8 mock API server with a simulated kubelet.
 *
 * <p>The tests that only read a lab (status, wiring, exec, streams, labels, a reap that must spare it) share one lab
 * per class, {@link #sharedLab()}: a User-Mode Linux lab takes seconds to boot. A test that stops or changes its lab
 * starts its own with {@link #start(String)}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class LabRuntimeContract {

    private final List<String> started = new ArrayList<>();
    private String shared;
    private Instant sharedStartedAt;

    /** The runtime under test. */
    protected abstract RuntimeAdapter runtime();

    /**
     * Leaves on the engine a lab of another tclab instance that died: its nodes labelled as the runtime labels
     * them, but past their expiry.
     */
    protected abstract void plantExpiredLab(String labId) throws Exception;

    /** Whether anything of the lab (of any instance) is left on the engine. */
    protected abstract boolean leftOnEngine(String labId) throws Exception;

    /** The expiry the runtime labelled the lab's nodes with. */
    protected abstract Instant expiryOf(String labId) throws Exception;

    @AfterEach
    void stopLabs() throws Exception {
        for (String lab : started) {
            runtime().stop(lab);
        }
        started.clear();
    }

    /** Stops the shared lab; a subclass that closes its engine after its tests does so after this. */
    @AfterAll
    protected void stopSharedLab() throws Exception {
        if (shared != null) {
            runtime().stop(shared);
            shared = null;
        }
    }

    /** The class's lab of the "two-node" topology for tests that only read it; the first to ask starts it. */
    protected String sharedLab() throws Exception {
        if (shared == null) {
            sharedStartedAt = Instant.now();
            String id = newLabId();
            try {
                launch(id, "two-node");
            } catch (Exception | AssertionError e) {
                runtime().stop(id);
                throw e;
            }
            shared = id;
        }
        return shared;
    }

    /** Starts a lab of this test's own, stopped after the test. */
    protected String start(String topology) throws Exception {
        String id = newLabId();
        started.add(id);
        launch(id, topology);
        return id;
    }

    private static String newLabId() {
        return "c" + UUID.randomUUID().toString().substring(0, 8);
    }

    private void launch(String id, String topology) throws Exception {
        List<LabProgressListener.Stage> stages = new ArrayList<>();
        runtime()
                .start(
                        new LabSpec(id, TestTopologies.load(topology), "contract", topology),
                        (stage, detail) -> stages.add(stage));
        assertThat(stages).as("progress events in order").containsExactly(LabProgressListener.Stage.values());
    }

    private ExecResult sh(String lab, String node, String script, Duration timeout) throws Exception {
        return runtime().exec(lab, node, List.of("sh", "-c", script), timeout);
    }

    @Test
    void shouldStartEveryNodeAndReportItRunning() throws Exception {
        String lab = sharedLab();

        assertThat(runtime().status(lab)).extracting(NodeStatus::node).containsExactlyInAnyOrder("client", "server");
        assertThat(runtime().status(lab))
                .allSatisfy(s -> assertThat(s.running()).as(s.toString()).isTrue());
        assertThat(runtime().labsOnEngine()).contains(lab);
    }

    @Test
    void shouldWireEachLinkWithTheTopologysInterfaceNames() throws Exception {
        String lab = sharedLab();

        for (String node : List.of("client", "server")) {
            ExecResult links = sh(lab, node, "ip -o link show", Duration.ofSeconds(10));
            assertThat(links.ok()).as(links.stderr()).isTrue();
            assertThat(links.stdout())
                    .as(node + "'s interfaces")
                    .contains(" lo:")
                    .contains(" eth1@");
        }
    }

    @Test
    void shouldCaptureOutputErrorsAndExitCodeOfAnExec() throws Exception {
        String lab = sharedLab();

        ExecResult result = sh(lab, "client", "echo out; echo err >&2; exit 3", Duration.ofSeconds(10));

        assertThat(result).isEqualTo(new ExecResult(3, "out\n", "err\n", false, false));
    }

    @Test
    void shouldStopAnExecAtItsTimeout() throws Exception {
        String lab = sharedLab();
        long begin = System.nanoTime();

        ExecResult result = sh(lab, "client", "sleep 30", Duration.ofSeconds(1));

        assertThat(result.timedOut()).isTrue();
        assertThat(result.exitCode()).isEqualTo(-1);
        assertThat(Duration.ofNanos(System.nanoTime() - begin)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void shouldStreamOutputTakeInputAndCloseOnRequest() throws Exception {
        String lab = sharedLab();
        StringBuffer out = new StringBuffer();
        CompletableFuture<String> closed = new CompletableFuture<>();

        ProcessStream stream =
                runtime().stream(lab, "client", List.of("sh", "-c", "echo ready; cat"), listener(out, closed));
        awaitContains(out, "ready");
        assertThat(stream.write("line-42\n".getBytes(StandardCharsets.UTF_8))).isTrue();
        awaitContains(out, "line-42");
        stream.close();

        assertThat(closed.get(5, TimeUnit.SECONDS)).isEqualTo("closed");
    }

    @Test
    void shouldReportTheEndOfAStreamedProcess() throws Exception {
        String lab = sharedLab();
        StringBuffer out = new StringBuffer();
        CompletableFuture<String> closed = new CompletableFuture<>();

        try (ProcessStream stream =
                runtime().stream(lab, "server", List.of("sh", "-c", "echo done"), listener(out, closed))) {
            assertThat(closed.get(5, TimeUnit.SECONDS)).isEqualTo("the process exited");
            assertThat(out.toString()).contains("done");
        }
    }

    @Test
    void shouldRefuseANodeTheLabDoesNotHave() throws Exception {
        String lab = sharedLab();

        assertThatThrownBy(() -> runtime().exec(lab, "nosuch", List.of("true"), Duration.ofSeconds(5)))
                .isInstanceOf(NodeNotFoundException.class);
        assertThatThrownBy(() -> runtime().exec("nolab", "client", List.of("true"), Duration.ofSeconds(5)))
                .isInstanceOf(NodeNotFoundException.class);
    }

    @Test
    void shouldStopEverythingOfALabAndStopTwiceAsOnce() throws Exception {
        String lab = start("two-node");

        runtime().stop(lab);

        assertThat(runtime().status(lab)).isEmpty();
        assertThat(runtime().labsOnEngine()).doesNotContain(lab);
        assertThat(leftOnEngine(lab)).isFalse();
        runtime().stop(lab);
        runtime().stop("never-started");
    }

    @Test
    void shouldReapOnlyExpiredLabsOfAnyInstance() throws Exception {
        String fresh = sharedLab();
        String ghost = "g" + UUID.randomUUID().toString().substring(0, 8);
        plantExpiredLab(ghost);
        assertThat(leftOnEngine(ghost)).isTrue();

        assertThat(runtime().removeExpiredLabs(Instant.now())).contains(ghost).doesNotContain(fresh);

        assertThat(leftOnEngine(ghost)).isFalse();
        assertThat(runtime().status(fresh))
                .hasSize(2)
                .allSatisfy(s -> assertThat(s.running()).isTrue());
    }

    @Test
    void shouldLabelEveryLabWithItsMaximumLifetimeAndAGrace() throws Exception {
        String lab = sharedLab();
        Instant before = sharedStartedAt;

        assertThat(expiryOf(lab))
                .as("max lifetime (4 h) and 10 min grace")
                .isBetween(
                        before.plus(Duration.ofHours(4)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS),
                        Instant.now().plus(Duration.ofHours(4).plusMinutes(11)));
    }

    private static StreamListener listener(StringBuffer out, CompletableFuture<String> closed) {
        return new StreamListener() {
            @Override
            public void onOutput(byte[] chunk) {
                out.append(new String(chunk, StandardCharsets.UTF_8));
            }

            @Override
            public void onClosed(String reason) {
                closed.complete(reason);
            }
        };
    }

    private static void awaitContains(StringBuffer out, String text) throws InterruptedException {
        for (int i = 0; i < 100 && !out.toString().contains(text); i++) {
            Thread.sleep(50);
        }
        assertThat(out.toString()).contains(text);
    }
}
