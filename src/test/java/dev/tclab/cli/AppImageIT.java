package dev.tclab.cli;

import static dev.tclab.cli.Commands.docker;
import static dev.tclab.cli.Commands.removeContainers;
import static dev.tclab.cli.Commands.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.testing.RunsAlone;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The app's container image as docs/operations.md runs it: built by {@code bin/build-app-image} from this build's
 * packaged app (on eclipse-temurin, or on Debian's JRE when no registry answers), run with its {@code docker run}
 * flags, it serves the catalog and keeps a learner's quiz answer in its data volume when the container is replaced.
 * Two settings differ from that page, for isolation only: the host port is a free one, and {@code TCLAB_INSTANCE}
 * labels the app apart, since a fresh app reaps its instance's labs that it has no record of (another test's, or a
 * developer's default tclab on this engine).
 */
// Shared: an image build and two app starts load the machine, which would skew an exclusive class's figures; it
// asserts only that the container serves within 120 s and keeps its data.
@RunsAlone(value = RunsAlone.Group.MEASUREMENTS, hold = RunsAlone.Hold.SHARED)
class AppImageIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String name = "tclab-image-it-" + UUID.randomUUID().toString().substring(0, 8);
    private final String instance = System.getenv().getOrDefault("_TEST_TCLAB_INSTANCE", "tclab-test") + "-image";
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();
    private final List<String> containers = new ArrayList<>();
    private boolean built;
    private boolean volume;
    private int port;

    @AfterEach
    void cleanUp() throws Exception {
        removeContainers(containers);
        removeContainers(docker("ps", "-aq", "--filter", "label=tclab.instance=" + instance));
        if (volume) {
            docker("volume", "rm", "-f", name);
        }
        if (built) {
            docker("image", "rm", "-f", name);
        }
    }

    @Test
    void shouldServeTheCatalogAndKeepALearnersAnswerInTheVolumeAcrossAReplacedContainer() throws Exception {
        String how = run(Path.of(""), 30, "bin/build-app-image", name);
        built = true;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        URI base = URI.create("http://localhost:" + port + "/");
        volume = true;

        String first = start();
        awaitCatalog(base, first, how);
        JsonNode quiz = firstQuiz(base);
        String cookie = answerCorrectly(base, quiz);
        assertThat(quizzesCorrect(base, cookie))
                .as("tbf-basics quizzes answered right, before")
                .isEqualTo(1);

        docker("rm", "-f", first);
        String second = start();
        awaitCatalog(base, second, how);

        assertThat(quizzesCorrect(base, cookie))
                .as("the same learner's right answers, in a new container on the" + " same volume (" + logs(second)
                        + ")")
                .isEqualTo(1);
    }

    /** docs/operations.md's docker run, apart from the host port and the instance label (see the class comment). */
    private String start() throws Exception {
        String id = docker(
                        "run",
                        "-d",
                        "-p",
                        port + ":8080",
                        "-v",
                        "/var/run/docker.sock:/var/run/docker.sock",
                        "-v",
                        name + ":/app/data",
                        "-e",
                        "TCLAB_INSTANCE=" + instance,
                        name)
                .get(0);
        containers.add(id);
        return id;
    }

    private void awaitCatalog(URI base, String container, String how) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> lessons = http.send(
                        HttpRequest.newBuilder(base.resolve("api/lessons"))
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(lessons.statusCode()).as(lessons.body()).isEqualTo(200);
                assertThat(JSON.readTree(lessons.body()).findValuesAsText("slug"))
                        .contains("tbf-basics");
                return;
            } catch (IOException notYet) {
                Thread.sleep(500);
            }
        }
        throw new AssertionError(
                "the container (" + how.strip() + ") did not serve the catalog within 120 s: " + logs(container));
    }

    private JsonNode firstQuiz(URI base) throws Exception {
        JsonNode lesson = JSON.readTree(http.send(
                        HttpRequest.newBuilder(base.resolve("api/lessons/tbf-basics"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body());
        for (JsonNode step : lesson.path("steps")) {
            if (step.path("quizzes").size() > 0) {
                return step.path("quizzes").get(0);
            }
        }
        throw new AssertionError("tbf-basics has no quiz in a step: " + lesson);
    }

    /** Tries the quiz's options in turn, as a learner might, until one is right; returns the learner's cookie. */
    private String answerCorrectly(URI base, JsonNode quiz) throws Exception {
        String cookie = null;
        for (int option = 0; option < quiz.path("options").size(); option++) {
            HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(
                            "api/lessons/tbf-basics/quizzes/" + quiz.path("id").asText()))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"choices\": [" + option + "]}"));
            if (cookie != null) {
                request.header("Cookie", cookie);
            }
            HttpResponse<String> verdict = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            assertThat(verdict.statusCode()).as(verdict.body()).isEqualTo(200);
            if (cookie == null) {
                cookie =
                        verdict.headers().firstValue("Set-Cookie").orElseThrow().split(";")[0];
            }
            if (JSON.readTree(verdict.body()).path("correct").asBoolean()) {
                return cookie;
            }
        }
        throw new AssertionError("no option of quiz " + quiz + " was graded correct");
    }

    private int quizzesCorrect(URI base, String cookie) throws Exception {
        JsonNode lessons = JSON.readTree(http.send(
                        HttpRequest.newBuilder(base.resolve("api/lessons"))
                                .header("Cookie", cookie)
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body());
        for (JsonNode lesson : lessons) {
            if (lesson.path("slug").asText().equals("tbf-basics")) {
                return lesson.path("progress").path("quizzesCorrect").asInt();
            }
        }
        throw new AssertionError("no tbf-basics in the catalog: " + lessons);
    }

    private static String logs(String container) {
        try {
            return "its log:\n" + run(Path.of(""), 1, "docker", "logs", "--tail", "80", container);
        } catch (Exception e) {
            return "no log: " + e;
        }
    }
}
