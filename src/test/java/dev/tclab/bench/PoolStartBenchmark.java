package dev.tclab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import dev.tclab.lab.LabService;
import dev.tclab.learner.LearnerIds;
import dev.tclab.runtime.RuntimeAdapter;
import dev.tclab.web.TestSocket;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.common.annotation.Identifier;
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
 * pooled lab (Start to running), then the terminal WebSocket of its client node opened until the shell's prompt
 * arrives (Start to prompt). Beside it, in the same rounds and on the same lab, its floor: the fastest way found to get
 * a prompt from an already running lab. For a Docker lab (ws-test) a docker-java exec of the same login shell with a
 * TTY, attached in this JVM (no CLI process to start); for a User-Mode Linux lab (uml-test, {@code kernel: uml}) the
 * same login shell through the lab's agent in its kernel, asked of the UML runtime in this JVM (no socket, no app in
 * between). {@code -Dbench.runtimes=docker} or {@code uml} times one kind only. Runs only with
 * {@code mvn -Pbenchmark verify}; writes target/benchmarks/pool-start.md.
 */
@QuarkusTest
@TestProfile(PoolStartBenchmark.PoolOfOne.class)
class PoolStartBenchmark {

    private static final String DOCKER_LESSON = "ws-test";
    private static final String UML_LESSON = "uml-test";
    private static final List<String> RUNTIMES =
            List.of(System.getProperty("bench.runtimes", "docker,uml").split(","));
    private static final int RUNS = Integer.getInteger("bench.runs", 20);
    private static final int WARMUP = 3;
    /**
     * How long a pooled lab waits between its refill and its Start ({@code -Dbench.settle-ms}): a class's pool waits
     * minutes; the shell started with it (TerminalSessions.prestart) must have printed its prompt to be handed out
     * with it, which a UML login shell takes 0.3-0.9 s for on a loaded machine.
     */
    private static final long SETTLE_MS = Long.getLong("bench.settle-ms", 500);

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([0-9a-f]+)\"");

    public static class PoolOfOne implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "tclab.pool.\"" + DOCKER_LESSON + "\"",
                    RUNTIMES.contains("docker") ? "1" : "0",
                    "tclab.pool.\"" + UML_LESSON + "\"",
                    RUNTIMES.contains("uml") ? "1" : "0");
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

    @Inject
    @Identifier("uml")
    RuntimeAdapter uml;

    @Test
    void startToPromptFromThePoolAgainstAShellOfTheRunningLab() throws Exception {
        StringBuilder report = new StringBuilder(
                "| measurement | runs | p50 ms | p95 ms | min ms | max ms |\n|---|---|---|---|---|---|\n");
        StringBuilder ratios = new StringBuilder();
        if (RUNTIMES.contains("docker")) {
            measure(
                    DOCKER_LESSON,
                    "Docker lab",
                    "exec of the same shell with a TTY in the running container",
                    labId -> execPrompt(labId),
                    report,
                    ratios);
        }
        if (RUNTIMES.contains("uml")) {
            measure(
                    UML_LESSON,
                    "UML lab",
                    "the same shell through the lab's agent (UML runtime's shell, no socket)",
                    labId -> RuntimeShell.promptMillis(uml, labId, "client", WAIT),
                    report,
                    ratios);
        }
        String text = report + "\n" + ratios;
        Path out = Path.of("target/benchmarks/pool-start.md");
        Files.createDirectories(out.getParent());
        Files.writeString(out, text);
        System.out.println(text);
    }

    /** The floor of one run: milliseconds to the prompt of the running lab's client. */
    private interface Floor {
        double millis(String labId) throws Exception;
    }

    private void measure(
            String lesson, String kind, String floorName, Floor floorOf, StringBuilder report, StringBuilder ratios)
            throws Exception {
        List<Double> running = new ArrayList<>();
        List<Double> prompt = new ArrayList<>();
        List<Double> floor = new ArrayList<>();
        for (int i = 0; i < RUNS + WARMUP; i++) {
            awaitPooled(lesson);
            // Let the refill's start settle, as a class's pool would be between Starts.
            Thread.sleep(SETTLE_MS);
            String cookie = learnerIds.sign(learnerIds.newId());
            long t0 = System.nanoTime();
            String labId = start(lesson, cookie);
            double r = (System.nanoTime() - t0) / 1e6;
            try (TestSocket terminal = TestSocket.terminal(base, labId, "client", cookie)) {
                terminal.awaitOutput(out -> out.contains("@client"), WAIT);
            }
            double p = (System.nanoTime() - t0) / 1e6;
            double f = floorOf.millis(labId);
            stop(labId, cookie);
            if (i >= WARMUP) {
                running.add(r);
                prompt.add(p);
                floor.add(f);
            }
        }
        Stats promptStats = Stats.of(prompt);
        Stats floorStats = Stats.of(floor);
        report.append(Stats.of(running).row(kind + " from the pool: POST /api/labs answered running"))
                .append('\n')
                .append(promptStats.row(kind + " from the pool: POST /api/labs to the terminal's prompt"))
                .append('\n')
                .append(floorStats.row(kind + " floor: " + floorName + ", to its prompt"))
                .append('\n');
        ratios.append(String.format(
                "- %s, Start to prompt over its floor: p50 ratio %.2f, p95 ratio %.2f%n",
                kind, promptStats.p50() / floorStats.p50(), promptStats.p95() / floorStats.p95()));
        assertThat(prompt).hasSize(RUNS);
    }

    private void awaitPooled(String lesson) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (labs.pooledReady(lesson) < 1) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the pool did not refill within " + WAIT);
            }
            Thread.sleep(20);
        }
    }

    private String start(String lesson, String cookie) throws Exception {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(base.resolve("/api/labs"))
                        .header("Cookie", LearnerIds.COOKIE + "=" + cookie)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"lesson\":\"" + lesson + "\"}"))
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
