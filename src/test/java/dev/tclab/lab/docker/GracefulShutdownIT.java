package dev.tclab.lab.docker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.httpclient5.ApacheDockerHttpClient;
import dev.tclab.web.TestSocket;
import java.io.File;
import java.net.ServerSocket;
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
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The packaged app stopped the way a process manager stops it (SIGTERM), with a learner's terminal open: it removes
 * its labs, their sidecars and its wiring helper, and exits well inside {@code docker stop}'s 10 s. A second copy of
 * the app with the same instance name that wired nothing leaves the serving copy's helper alone when it stops.
 */
class GracefulShutdownIT {

    /** {@code docker stop} and many process managers kill after 10 s; cleaning up must fit well inside that. */
    private static final Duration STOP_BUDGET = Duration.ofSeconds(8);
    private static final Path JAR = Path.of("target/quarkus-app/quarkus-run.jar");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newHttpClient();
    private final DockerClient docker = docker();
    private final String instance = System.getenv().getOrDefault("_TEST_TCLAB_INSTANCE", "tclab-test") + "-stop-"
            + UUID.randomUUID().toString().substring(0, 6);
    private final List<Process> apps = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        apps.forEach(Process::destroyForcibly);
        for (Container c : containersOfInstance()) {
            docker.removeContainerCmd(c.getId()).withForce(true).exec();
        }
    }

    @Test
    void shouldRemoveLabsSidecarsAndWiringHelperOnSigtermWithATerminalOpen() throws Exception {
        assertTrue(Files.isRegularFile(JAR), "the packaged app is missing: run mvn verify (package comes first)");
        URI serving = URI.create("http://localhost:" + freePort());
        Process servingApp = launch(serving);
        URI idle = URI.create("http://localhost:" + freePort());
        Process idleApp = launch(idle);
        awaitReady(serving);
        awaitReady(idle);

        HttpResponse<String> created = http.send(HttpRequest.newBuilder(serving.resolve("/api/labs"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"lesson\":\"tbf-basics\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(202);
        String cookie = created.headers().firstValue("Set-Cookie").orElseThrow().split(";")[0].split("=", 2)[1];
        String labId = JSON.readTree(created.body()).get("id").asText();
        awaitRunning(serving, labId, cookie);
        assertThat(roles()).containsExactlyInAnyOrder("wiring", "node", "node", "sidecar", "sidecar");

        idleApp.destroy();
        assertTrue(idleApp.waitFor(30, TimeUnit.SECONDS), "the idle copy stops");
        assertThat(roles()).as("the idle copy wired nothing and left the serving copy's containers alone")
                .containsExactlyInAnyOrder("wiring", "node", "node", "sidecar", "sidecar");

        try (TestSocket terminal = TestSocket.open(serving, "/ws/labs/" + labId + "/nodes/client/terminal", cookie,
                TestSocket.originOf(serving))) {
            long start = System.nanoTime();
            servingApp.destroy();
            boolean exited = servingApp.waitFor(30, TimeUnit.SECONDS);
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertTrue(exited, "the app exits after SIGTERM");
            assertThat(took).as("time from SIGTERM to exit, with a terminal open").isLessThan(STOP_BUDGET);
            assertThat(roles()).as("containers of the stopped app").isEmpty();
        }
    }

    private Process launch(URI base) throws Exception {
        File log = File.createTempFile("tclab-shutdown-", ".log");
        log.deleteOnExit();
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", JAR.toString())
                .redirectErrorStream(true)
                .redirectOutput(log);
        builder.environment().putAll(Map.of("TCLAB_INSTANCE", instance, "QUARKUS_HTTP_PORT",
                Integer.toString(base.getPort())));
        Process app = builder.start();
        apps.add(app);
        return app;
    }

    private void awaitReady(URI base) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (http.send(HttpRequest.newBuilder(base.resolve("/q/health/ready")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (java.io.IOException e) {
                // Not listening yet.
            }
            Thread.sleep(250);
        }
        throw new AssertionError("the app at " + base + " did not become ready in 120 s");
    }

    private void awaitRunning(URI base, String labId, String cookie) throws Exception {
        for (int i = 0; i < 120; i++) {
            HttpResponse<String> lab = http.send(HttpRequest.newBuilder(base.resolve("/api/labs/" + labId))
                    .header("Cookie", "tclab_learner=" + cookie).build(), HttpResponse.BodyHandlers.ofString());
            JsonNode body = JSON.readTree(lab.body());
            if ("running".equals(body.path("status").asText())) {
                return;
            }
            assertThat(body.path("status").asText()).as(lab.body()).isNotEqualTo("failed");
            Thread.sleep(250);
        }
        throw new AssertionError("the lab did not start in 30 s");
    }

    private List<String> roles() {
        return containersOfInstance().stream().map(c -> c.getLabels().get(Labels.ROLE)).toList();
    }

    private List<Container> containersOfInstance() {
        return docker.listContainersCmd().withShowAll(true).withLabelFilter(Labels.instance(instance)).exec();
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static DockerClient docker() {
        DockerClientConfig config = DefaultDockerClientConfig.createDefaultConfigBuilder().build();
        return DockerClientImpl.getInstance(config, new ApacheDockerHttpClient.Builder()
                .dockerHost(config.getDockerHost()).build());
    }
}
