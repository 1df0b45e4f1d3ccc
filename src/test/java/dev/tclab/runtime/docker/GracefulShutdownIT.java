package dev.tclab.runtime.docker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.httpclient5.ApacheDockerHttpClient;
import dev.tclab.lab.PackagedApp;
import dev.tclab.runtime.LabelKeys;
import dev.tclab.web.TestSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The packaged app stopped the way a process manager stops it (SIGTERM), with a learner's terminal open: it exits
 * well inside {@code docker stop}'s 10 s, removes its wiring helper, and leaves its labs and their sidecars for the
 * next start to adopt ({@code tclab.lab.keep-on-shutdown}, on by default). A second copy of the app with the same
 * instance name that wired nothing leaves the serving copy's helper alone when it stops.
 */
class GracefulShutdownIT {

    /** {@code docker stop} and many process managers kill after 10 s; cleaning up must fit well inside that. */
    private static final Duration STOP_BUDGET = Duration.ofSeconds(8);

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newHttpClient();
    private final DockerClient docker = docker();
    private final String instance = System.getenv().getOrDefault("_TEST_TCLAB_INSTANCE", "tclab-test") + "-stop-"
            + UUID.randomUUID().toString().substring(0, 6);
    private final List<PackagedApp> apps = new ArrayList<>();

    @AfterEach
    void cleanUp() throws InterruptedException {
        for (PackagedApp app : apps) {
            app.stop();
        }
        for (Container c : containersOfInstance()) {
            docker.removeContainerCmd(c.getId()).withForce(true).exec();
        }
    }

    @Test
    void shouldRemoveTheWiringHelperAndKeepTheLabsOnSigtermWithATerminalOpen() throws Exception {
        PackagedApp serving = launch("serving");
        PackagedApp idle = launch("idle");
        URI base = serving.base();

        HttpResponse<String> created = http.send(
                HttpRequest.newBuilder(base.resolve("/api/labs"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"lesson\":\"tbf-basics\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(202);
        String cookie = created.headers()
                .firstValue("Set-Cookie")
                .orElseThrow()
                .split(";")[0]
                .split("=", 2)[1];
        String labId = JSON.readTree(created.body()).get("id").asText();
        awaitRunning(base, labId, cookie);
        assertThat(roles()).containsExactlyInAnyOrder("wiring", "node", "node", "sidecar", "sidecar");

        idle.terminate();
        assertThat(roles())
                .as("the idle copy wired nothing and left the serving copy's containers alone")
                .containsExactlyInAnyOrder("wiring", "node", "node", "sidecar", "sidecar");

        try (TestSocket terminal = TestSocket.open(
                base, "/ws/labs/" + labId + "/nodes/client/terminal", cookie, TestSocket.originOf(base))) {
            Duration took = serving.terminate();
            assertThat(took)
                    .as("time from SIGTERM to exit, with a terminal open")
                    .isLessThan(STOP_BUDGET);
            assertThat(roles())
                    .as("containers of the stopped app: its lab, kept for the next start")
                    .containsExactlyInAnyOrder("node", "node", "sidecar", "sidecar");
        }
    }

    /** A copy of the packaged app with this test's instance name and a data directory of its own. */
    private PackagedApp launch(String name) throws Exception {
        Path work = Files.createDirectories(
                Path.of("target", "shutdown-" + instance, name).toAbsolutePath());
        PackagedApp app = new PackagedApp(work.resolve("data"), instance, work);
        apps.add(app);
        app.start();
        return app;
    }

    private void awaitRunning(URI base, String labId, String cookie) throws Exception {
        for (int i = 0; i < 120; i++) {
            HttpResponse<String> lab = http.send(
                    HttpRequest.newBuilder(base.resolve("/api/labs/" + labId))
                            .header("Cookie", "tclab_learner=" + cookie)
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
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
        return containersOfInstance().stream()
                .map(c -> c.getLabels().get(LabelKeys.ROLE))
                .toList();
    }

    private List<Container> containersOfInstance() {
        return docker.listContainersCmd()
                .withShowAll(true)
                .withLabelFilter(Labels.instance(instance))
                .exec();
    }

    private static DockerClient docker() {
        DockerClientConfig config =
                DefaultDockerClientConfig.createDefaultConfigBuilder().build();
        return DockerClientImpl.getInstance(
                config,
                new ApacheDockerHttpClient.Builder()
                        .dockerHost(config.getDockerHost())
                        .build());
    }
}
