package dev.tclab.cli;

import static dev.tclab.cli.Commands.docker;
import static dev.tclab.cli.Commands.removeContainers;
import static dev.tclab.cli.Commands.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.testing.RunsAlone;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The README's run command as a new user runs it: a fresh clone of this checkout's HEAD, {@code bin/tclab} with no
 * {@code TCLAB_*}, {@code QUARKUS_*} or Java options and no data folder (so it builds the app itself and keeps its
 * database in the default {@code data/}), the catalog on port 8080, a lab of {@code tbf-basics} started and stopped
 * through the API as the lesson page does, and a SIGTERM. Any difference fails with the app's log.
 *
 * <p>The app runs with the default instance label {@code tclab}, shared with any other default tclab on this engine,
 * so the cleanup removes only what this test made: containers owned by its learner, and a wiring helper that was
 * not there before it started.
 */
// Shared: a build of the clone loads the machine, which would skew an exclusive class's figures, but the class
// measures nothing: the app serves within 20 minutes, a lab starts and stops, the app exits on SIGTERM.
@RunsAlone(value = RunsAlone.Group.MEASUREMENTS, hold = RunsAlone.Hold.SHARED)
class ReadmeRunCommandIT {

    private static final URI BASE = URI.create("http://localhost:8080/");
    private static final String ORIGIN = "http://localhost:8080";
    /** The clone's bin/tclab builds the app (npm and maven) before it serves: minutes on a busy machine. */
    private static final Duration BUILD_AND_START = Duration.ofMinutes(20);

    private static final ObjectMapper JSON = new ObjectMapper();

    /** HTTP/1.1 as a browser speaks on plain http (Java's client would offer h2c, which sends no Host header). */
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();

    private final List<String> helpersBefore = wiringHelpers();
    private Path work;
    private Process app;
    private String learner;

    @AfterEach
    void cleanUp() throws Exception {
        if (app != null) {
            stopTree(app);
        }
        if (learner != null) {
            removeContainers(docker(
                    "ps", "-aq", "--filter", "label=tclab.instance=tclab", "--filter", "label=tclab.owner=" + learner));
        }
        List<String> newHelpers = new ArrayList<>(wiringHelpers());
        newHelpers.removeAll(helpersBefore);
        removeContainers(newHelpers);
        if (work != null) {
            try (Stream<Path> files = Files.walk(work)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Test
    void shouldServeAFreshCloneWithTheReadmesRunCommandAsWritten() throws Exception {
        assertThat(answers("api/lessons"))
                .as("something already serves on port 8080, where the README's run command"
                        + " serves: stop it and run this test again")
                .isFalse();
        work = Files.createTempDirectory("tclab-readme-run-");
        Path clone = work.resolve("tclab");
        String head = run(Path.of(""), 1, "git", "rev-parse", "HEAD").strip();
        run(
                work,
                5,
                "git",
                "clone",
                "-q",
                "--no-checkout",
                Path.of("").toAbsolutePath().toString(),
                clone.toString());
        run(clone, 1, "git", "checkout", "-q", "--detach", head);
        Path log = work.resolve("app.log");

        ProcessBuilder command = new ProcessBuilder(clone.resolve("bin/tclab").toString())
                .directory(clone.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        scrub(command.environment());
        app = command.start();

        HttpResponse<String> lessons = awaitCatalog(log);
        assertThat(lessons.statusCode()).as(withLog("GET /api/lessons", log)).isEqualTo(200);
        assertThat(JSON.readTree(lessons.body()).findValuesAsText("slug"))
                .as(withLog(lessons.body(), log))
                .contains("tbf-basics");
        assertThat(clone.resolve("data/tclab.mv.db"))
                .as(withLog("the database in the default data folder", log))
                .isRegularFile();

        HttpResponse<String> started = http.send(
                HttpRequest.newBuilder(BASE.resolve("api/labs"))
                        .header("Content-Type", "application/json")
                        .header("Origin", ORIGIN)
                        .POST(HttpRequest.BodyPublishers.ofString("{\"lesson\":\"tbf-basics\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(started.statusCode()).as(withLog(started.body(), log)).isEqualTo(202);
        String cookie = started.headers().firstValue("Set-Cookie").orElseThrow().split(";")[0];
        learner = cookie.substring(cookie.indexOf('=') + 1, cookie.indexOf('.'));
        String labId = JSON.readTree(started.body()).get("id").asText();
        assertThat(awaitStatus(labId, cookie, log))
                .as(withLog("the lab of tbf-basics", log))
                .isEqualTo("running");

        HttpResponse<String> stopped = http.send(
                HttpRequest.newBuilder(BASE.resolve("api/labs/" + labId))
                        .header("Cookie", cookie)
                        .header("Origin", ORIGIN)
                        .DELETE()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(stopped.statusCode()).as(withLog(stopped.body(), log)).isEqualTo(204);
        assertThat(labStatus(labId, cookie))
                .as(withLog("the lab after DELETE", log))
                .startsWith("stopped");
        assertThat(docker("ps", "-aq", "--filter", "label=tclab.lab=" + labId))
                .as("the lab's containers")
                .isEmpty();

        app.destroy();
        assertThat(app.waitFor(30, TimeUnit.SECONDS))
                .as(withLog("the app exits within 30 s of SIGTERM", log))
                .isTrue();
    }

    /** What a new user's shell would not have: every tclab and Quarkus setting, and options the JVM would read. */
    private static void scrub(Map<String, String> env) {
        env.keySet()
                .removeIf(k -> k.startsWith("TCLAB_")
                        || k.startsWith("QUARKUS_")
                        || k.startsWith("_TEST_TCLAB")
                        || List.of("JAVA_OPTS", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS")
                                .contains(k));
    }

    private HttpResponse<String> awaitCatalog(Path log) throws Exception {
        long deadline = System.nanoTime() + BUILD_AND_START.toNanos();
        while (System.nanoTime() < deadline) {
            if (!app.isAlive()) {
                throw new AssertionError(withLog("bin/tclab exited with " + app.exitValue() + " before serving", log));
            }
            try {
                return http.send(
                        HttpRequest.newBuilder(BASE.resolve("api/lessons"))
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
            } catch (ConnectException notYet) {
                Thread.sleep(500);
            }
        }
        throw new AssertionError(withLog("bin/tclab did not serve the catalog within " + BUILD_AND_START, log));
    }

    private String awaitStatus(String labId, String cookie, Path log) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        String status = labStatus(labId, cookie);
        while (System.nanoTime() < deadline && (status.equals("queued") || status.equals("starting"))) {
            Thread.sleep(250);
            status = labStatus(labId, cookie);
        }
        return status;
    }

    private String labStatus(String labId, String cookie) throws Exception {
        HttpResponse<String> lab = http.send(
                HttpRequest.newBuilder(BASE.resolve("api/labs/" + labId))
                        .header("Cookie", cookie)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        JsonNode body = JSON.readTree(lab.body());
        return body.path("status").asText()
                + (body.path("reason").isTextual() ? ": " + body.path("reason").asText() : "");
    }

    private boolean answers(String path) {
        try {
            http.send(
                    HttpRequest.newBuilder(BASE.resolve(path))
                            .timeout(Duration.ofSeconds(5))
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
            return true;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String withLog(String what, Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return what + "\n--- the app's log (" + log + "), last lines ---\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 80), lines.size()));
        } catch (IOException e) {
            return what + " (no app log: " + e + ")";
        }
    }

    /** bin/tclab is a shell running maven while it builds, then java (exec): stop whichever runs, and its children. */
    private static void stopTree(Process process) throws InterruptedException {
        List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
        tree.add(process.toHandle());
        tree.forEach(ProcessHandle::destroy);
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            tree.forEach(ProcessHandle::destroyForcibly);
        }
    }

    private static List<String> wiringHelpers() {
        try {
            return docker("ps", "-aq", "--filter", "label=tclab.instance=tclab", "--filter", "label=tclab.role=wiring");
        } catch (Exception e) {
            throw new AssertionError("cannot list containers with the docker CLI", e);
        }
    }
}
