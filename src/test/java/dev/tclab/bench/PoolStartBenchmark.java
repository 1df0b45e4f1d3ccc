package dev.tclab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import dev.tclab.lab.LabService;
import dev.tclab.learner.LearnerIds;
import dev.tclab.web.TestSocket;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Start to a usable prompt from the warm pool, as a learner's page gets it: {@code POST /api/labs} answered with a
 * pooled lab, then the terminal WebSocket of its client node opened until the shell's prompt arrives. Beside it,
 * in the same rounds and on the same container, its floor: the fastest way found to get a prompt from an already
 * running container, a docker-java exec of the same login shell with a TTY, attached in this JVM (no CLI process
 * to start), until the same prompt arrives. Runs only with {@code mvn -Pbenchmark verify}; writes
 * target/benchmarks/pool-start.md.
 */
@QuarkusTest
@TestProfile(PoolStartBenchmark.PoolOfOne.class)
class PoolStartBenchmark {

    private static final String LESSON = "ws-test";
    private static final int RUNS = Integer.getInteger("bench.runs", 20);
    private static final int WARMUP = 3;
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([0-9a-f]+)\"");

    public static class PoolOfOne implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("tclab.pool.\"" + LESSON + "\"", "1");
        }
    }

    private final HttpClient http = HttpClient.newHttpClient();

    @TestHTTPResource("/")
    URI base;

    @Inject
    LabService labs;

    @Inject
    LearnerIds learnerIds;

    @Inject
    DockerClient docker;

    @Test
    void startToPromptFromThePoolAgainstExecIntoARunningContainer() throws Exception {
        List<Double> app = new ArrayList<>();
        List<Double> floor = new ArrayList<>();
        for (int i = 0; i < RUNS + WARMUP; i++) {
            awaitPooled();
            // Let the refill's start settle, as a class's pool would be between Starts.
            Thread.sleep(500);
            String cookie = learnerIds.sign(learnerIds.newId());
            long t0 = System.nanoTime();
            String labId = start(cookie);
            try (TestSocket terminal = TestSocket.terminal(base, labId, "client", cookie)) {
                terminal.awaitOutput(out -> out.contains("@client"), WAIT);
            }
            double a = (System.nanoTime() - t0) / 1e6;
            double f = execPrompt(labId);
            stop(labId, cookie);
            if (i >= WARMUP) {
                app.add(a);
                floor.add(f);
            }
        }
        Stats appStats = Stats.of(app);
        Stats floorStats = Stats.of(floor);
        String report = "| measurement | runs | p50 ms | p95 ms | min ms | max ms |\n|---|---|---|---|---|---|\n"
                + appStats.row("from the pool: POST /api/labs to the terminal's prompt") + "\n"
                + floorStats.row("floor: exec of the same shell with a TTY in the running container to its prompt")
                + "\n\n"
                + String.format(
                        "- p50 ratio %.2f, p95 ratio %.2f%n",
                        appStats.p50() / floorStats.p50(), appStats.p95() / floorStats.p95());
        Path out = Path.of("target/benchmarks/pool-start.md");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);
        System.out.println(report);
        assertThat(app).hasSize(RUNS);
    }

    private void awaitPooled() throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (labs.pooledReady(LESSON) < 1) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the pool did not refill within " + WAIT);
            }
            Thread.sleep(20);
        }
    }

    private String start(String cookie) throws Exception {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(base.resolve("/api/labs"))
                        .header("Cookie", LearnerIds.COOKIE + "=" + cookie)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"lesson\":\"" + LESSON + "\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        Matcher id = ID.matcher(response.body());
        if (response.statusCode() != 202 || !response.body().contains("\"running\"") || !id.find()) {
            throw new AssertionError(
                    "not a running lab from the pool: " + response.statusCode() + " " + response.body());
        }
        return id.group(1);
    }

    private void stop(String labId, String cookie) throws Exception {
        http.send(
                HttpRequest.newBuilder(base.resolve("/api/labs/" + labId))
                        .header("Cookie", LearnerIds.COOKIE + "=" + cookie)
                        .DELETE()
                        .build(),
                HttpResponse.BodyHandlers.discarding());
    }

    /** The floor: the node's login shell by a direct exec attach with a TTY, timed until its prompt arrives. */
    private double execPrompt(String labId) throws Exception {
        String container = docker.listContainersCmd()
                .withLabelFilter(Map.of("tclab.lab", labId, "tclab.node", "client", "tclab.role", "node"))
                .exec()
                .get(0)
                .getId();
        return ExecPrompt.millis(docker, container, "client", WAIT);
    }
}
