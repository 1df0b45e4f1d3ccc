package dev.tclab.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The packaged app on its default embedded database, killed with SIGKILL right after acknowledging a burst of quiz
 * answers: every acknowledged answer is in the data directory (H2 holds commits in memory by default; the app
 * makes it write each one before answering).
 */
class KilledAppKeepsAcknowledgedWritesIT {

    private static final Path JAR = Path.of("target/quarkus-app/quarkus-run.jar");
    private static final int ANSWERS = 30;

    @Test
    void shouldKeepEveryAcknowledgedAnswerOfAKilledApp() throws Exception {
        assertThat(JAR)
                .as("the packaged app (mvn verify packages it before the *IT tests)")
                .exists();
        Path dir = Files.createDirectories(
                Path.of("target", "killed-" + UUID.randomUUID()).toAbsolutePath());
        int port = freePort();
        ProcessBuilder builder = new ProcessBuilder("java", "-jar", JAR.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("app.log").toFile());
        builder.environment().put("QUARKUS_HTTP_PORT", String.valueOf(port));
        builder.environment().put("TCLAB_DATA_DIR", dir.toString());
        // Its own label: the app reaps its instance's orphaned containers at start, and must reap nobody else's.
        builder.environment()
                .put(
                        "TCLAB_INSTANCE",
                        "tclab-killtest-" + UUID.randomUUID().toString().substring(0, 8));
        Process app = builder.start();
        int acknowledged = 0;
        try {
            HttpClient http = HttpClient.newBuilder()
                    .cookieHandler(new java.net.CookieManager())
                    .build();
            String base = "http://127.0.0.1:" + port;
            awaitLive(http, base, app, dir);
            JsonNode lesson = new ObjectMapper()
                    .readTree(http.send(
                                    HttpRequest.newBuilder(URI.create(base + "/api/lessons/tbf-basics"))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString())
                            .body());
            String quiz = lesson.findValues("quizzes").stream()
                    .filter(q -> !q.isEmpty())
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("tbf-basics has no quiz"))
                    .get(0)
                    .get("id")
                    .asText();
            for (int i = 0; i < ANSWERS; i++) {
                HttpResponse<String> answer = http.send(
                        HttpRequest.newBuilder(URI.create(base + "/api/lessons/tbf-basics/quizzes/" + quiz))
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString("{\"choices\": [" + (i % 2) + "]}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (answer.statusCode() == 200) {
                    acknowledged++;
                }
            }
        } finally {
            app.destroyForcibly(); // SIGKILL: no shutdown hook, no pool close, no database close
            app.waitFor();
        }
        assertThat(acknowledged).isEqualTo(ANSWERS);
        try (Connection c = DriverManager.getConnection("jdbc:h2:file:" + dir + "/tclab");
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM quiz_attempt")) {
            rs.next();
            assertThat(rs.getInt(1)).as("answers kept after SIGKILL").isEqualTo(acknowledged);
        }
    }

    private static void awaitLive(HttpClient http, String base, Process app, Path dir) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < deadline) {
            if (!app.isAlive()) {
                throw new AssertionError("the app exited at start: " + Files.readString(dir.resolve("app.log")));
            }
            try {
                if (http.send(
                                        HttpRequest.newBuilder(URI.create(base + "/q/health/live"))
                                                .build(),
                                        HttpResponse.BodyHandlers.discarding())
                                .statusCode()
                        == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the app did not start in 90 s: " + Files.readString(dir.resolve("app.log")));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
