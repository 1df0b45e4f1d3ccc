package dev.tclab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/tclab down} on the real engine: a server started by {@code bin/tclab} under a private instance label,
 * with a learner's lab and a pooled lab, is stopped and every container of its instance removed, while a container
 * of another instance on the same engine stays.
 */
class TclabDownIT {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Pattern READY_STARTS =
            Pattern.compile("^tclab_lab_start_seconds_count\\{outcome=\"ready\"} ([0-9.eE+-]+)$", Pattern.MULTILINE);

    private final String instance = System.getenv().getOrDefault("_TEST_TCLAB_INSTANCE", "tclab-test") + "-down-"
            + UUID.randomUUID().toString().substring(0, 6);
    private final String otherInstance = instance + "-other";

    @Test
    void downStopsTheAppAndRemovesItsLabsAndPooledLabsOnly() throws Exception {
        Path work = Files.createTempDirectory("tclab-down-it");
        Path data = work.resolve("data");
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        URI base = URI.create("http://127.0.0.1:" + port + "/");
        String other = docker(
                        "run",
                        "-d",
                        "--network",
                        "none",
                        "--label",
                        "tclab.app=tclab",
                        "--label",
                        "tclab.instance=" + otherInstance,
                        "--label",
                        "tclab.role=node",
                        "--label",
                        "tclab.lab=other",
                        "tclab/lab-node:1",
                        "sleep",
                        "infinity")
                .trim();
        // mvn verify packaged the app just before this test, but Quarkus leaves the jar's time alone when nothing in
        // it changed: bin/tclab would then build it again (any file under src/ newer), for minutes, before serving.
        Path jar = Path.of("target/quarkus-app/quarkus-run.jar");
        assertThat(jar).as("run with mvn verify, which packages the app first").isRegularFile();
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now()));
        ProcessBuilder serve = new ProcessBuilder("bin/tclab")
                .redirectErrorStream(true)
                .redirectOutput(work.resolve("app.log").toFile());
        env(serve, data);
        serve.environment().put("QUARKUS_HTTP_PORT", Integer.toString(port));
        serve.environment().put("QUARKUS_HTTP_HOST", "127.0.0.1");
        serve.environment().put("JAVA_OPTS", "-Xmx512m -Dtclab.pool.\"tbf-basics\"=1");
        Process app = serve.start();
        try {
            awaitReady(base, app, work);
            String cookie = learnerCookie(base);
            String labId = startLab(base, cookie);
            awaitRunning(base, cookie, labId);
            awaitReadyStarts(base, 2);
            assertThat(Files.readString(data.resolve("tclab.pid")).trim()).isEqualTo(Long.toString(app.pid()));

            ProcessBuilder down =
                    new ProcessBuilder("bin/tclab", "down", "--instance", instance).redirectErrorStream(true);
            env(down, data);
            Process downing = down.start();
            String said = new String(downing.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(downing.waitFor(90, TimeUnit.SECONDS)).as(said).isTrue();

            assertThat(downing.exitValue()).as(said).isZero();
            assertThat(said)
                    .contains("Stopping the app (pid " + app.pid() + ")")
                    .contains("Removed 2 labs (learners' and pooled) of instance '" + instance + "'");
            assertThat(app.isAlive()).as("the app after bin/tclab down").isFalse();
            assertThat(docker("ps", "-aq", "--filter", "label=tclab.instance=" + instance))
                    .as("left of " + instance)
                    .isBlank();
            assertThat(docker("ps", "-q", "--filter", "id=" + other))
                    .as("the other instance's container")
                    .isNotBlank();
            assertThat(data.resolve("tclab.pid")).doesNotExist();
        } finally {
            app.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
            for (String label : List.of(instance, otherInstance)) {
                String left = docker("ps", "-aq", "--filter", "label=tclab.instance=" + label)
                        .trim();
                if (!left.isEmpty()) {
                    List<String> rm = new ArrayList<>(List.of("rm", "-f"));
                    rm.addAll(List.of(left.split("\\s+")));
                    docker(rm.toArray(String[]::new));
                }
            }
        }
    }

    private void env(ProcessBuilder process, Path data) {
        Map<String, String> env = process.environment();
        env.put("TCLAB_INSTANCE", instance);
        env.put("TCLAB_DATA_DIR", data.toAbsolutePath().toString());
    }

    private static void awaitReady(URI base, Process app, Path work) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (System.nanoTime() < deadline) {
            assertThat(app.isAlive())
                    .as("bin/tclab exited; see " + work.resolve("app.log"))
                    .isTrue();
            try {
                if (get(base.resolve("/q/health/ready"), null).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // Not listening yet.
            }
            Thread.sleep(200);
        }
        throw new AssertionError("bin/tclab did not serve within 3 minutes; see " + work.resolve("app.log"));
    }

    private static String learnerCookie(URI base) throws Exception {
        HttpResponse<String> mine = get(base.resolve("/api/workshop/mine"), null);
        return mine.headers().allValues("Set-Cookie").stream()
                .filter(c -> c.startsWith("tclab_learner="))
                .map(c -> c.substring(0, c.indexOf(';')))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no learner cookie: " + mine.headers()));
    }

    private static String startLab(URI base, String cookie) throws Exception {
        HttpResponse<String> started = HTTP.send(
                HttpRequest.newBuilder(base.resolve("/api/labs"))
                        .header("Cookie", cookie)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"lesson\":\"tbf-basics\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(started.statusCode()).as(started.body()).isIn(200, 202);
        Matcher id = Pattern.compile("\"id\":\"([^\"]+)\"").matcher(started.body());
        assertThat(id.find()).as(started.body()).isTrue();
        return id.group(1);
    }

    private static void awaitRunning(URI base, String cookie, String labId) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        String body = "";
        while (System.nanoTime() < deadline) {
            body = get(base.resolve("/api/labs/" + labId), cookie).body();
            if (body.contains("\"status\":\"running\"")) {
                return;
            }
            assertThat(body).doesNotContain("\"status\":\"failed\"");
            Thread.sleep(200);
        }
        throw new AssertionError("lab " + labId + " not running within 2 minutes: " + body);
    }

    /** Waits until the server counts that many lab starts done: the learner's and the pooled one. */
    private static void awaitReadyStarts(URI base, int starts) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (System.nanoTime() < deadline) {
            Matcher count =
                    READY_STARTS.matcher(get(base.resolve("/q/metrics"), null).body());
            if (count.find() && Double.parseDouble(count.group(1)) >= starts) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("fewer than " + starts + " labs were ready within 2 minutes");
    }

    private static HttpResponse<String> get(URI uri, String cookie) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10));
        if (cookie != null) {
            request.header("Cookie", cookie);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String docker(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("docker"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor()).as(String.join(" ", command)).isZero();
        return out;
    }
}
