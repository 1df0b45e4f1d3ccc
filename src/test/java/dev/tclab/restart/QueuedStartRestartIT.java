package dev.tclab.restart;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.lab.PackagedApp;
import dev.tclab.learner.LearnerIds;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A start answered with a place in the start queue is not lost when the server is killed: the packaged app, on the
 * real engine and with room for one lab, is killed with SIGKILL while a second learner's start waits; started again,
 * it shows that learner the same lab in the same place, and starts it by itself once the first lab stops.
 */
class QueuedStartRestartIT {

    private static final String LESSON = "tbf-basics";

    private static PackagedApp app;
    private static String first;
    private static String second;
    private static String firstLab;
    private static String secondLab;

    @BeforeAll
    static void startApp() throws Exception {
        Path work = Files.createDirectories(Path.of("target/queued-restart-it"));
        String instance = System.getenv().getOrDefault("_TEST_TCLAB_INSTANCE", "tclab-test") + "-queued";
        app = new PackagedApp(Files.createTempDirectory(work, "data-"), instance, work)
                .with("tclab.lab.max-running", "1");
        app.start();
    }

    @AfterAll
    static void stopAppAndRemoveItsContainers() throws Exception {
        try {
            if (firstLab != null) {
                as(first).delete("/api/labs/" + firstLab);
            }
            if (secondLab != null) {
                as(second).delete("/api/labs/" + secondLab);
            }
        } finally {
            app.stop();
            String left = EngineAndSockets.removeContainersOf(app.instance());
            assertThat(left)
                    .as("containers of the test's instance after the sweep")
                    .isEmpty();
        }
    }

    @Test
    void shouldKeepAQueuedStartAcrossSigkillAndStartItWhenASlotFrees() throws Exception {
        first = newLearner();
        second = newLearner();
        firstLab = start(first).then().statusCode(202).extract().path("id");
        awaitStatus(first, firstLab, "running", Duration.ofSeconds(60));
        JsonPath queued = start(second).then().statusCode(202).extract().jsonPath();
        secondLab = queued.getString("id");
        assertThat(queued.getString("status")).isEqualTo("queued");
        assertThat(queued.getInt("queue.position")).isEqualTo(1);

        app.kill();
        Duration restart = app.start();
        System.out.printf("queued restart IT: restarted after SIGKILL, ready in %d ms%n", restart.toMillis());

        JsonPath after = as(second)
                .get("/api/labs/" + secondLab)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(after.getString("status"))
                .as("still waiting: " + after.prettify())
                .isEqualTo("queued");
        assertThat(after.getInt("queue.position")).isEqualTo(1);
        assertThat(after.getInt("queue.waiting")).isEqualTo(1);
        assertThat(after.getString("createdAt")).isEqualTo(queued.getString("createdAt"));
        assertThat(as(second)
                        .get("/api/labs")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("id"))
                .as("the learner's page finds it again")
                .containsExactly(secondLab);
        assertThat(start(second).then().statusCode(200).extract().<String>path("id"))
                .as("pressing Start again keeps the place")
                .isEqualTo(secondLab);
        assertThat(as(first)
                        .get("/api/labs/" + firstLab)
                        .then()
                        .statusCode(200)
                        .extract()
                        .<String>path("status"))
                .isEqualTo("running");

        long freed = System.nanoTime();
        as(first).delete("/api/labs/" + firstLab).then().statusCode(204);
        firstLab = null;
        awaitStatus(second, secondLab, "running", Duration.ofSeconds(60));
        System.out.printf(
                "queued restart IT: the queued lab ran %d ms after the slot freed%n",
                Duration.ofNanos(System.nanoTime() - freed).toMillis());
    }

    private static String newLearner() {
        return given().baseUri(app.base().toString())
                .get("/api/labs")
                .then()
                .statusCode(200)
                .extract()
                .cookie(LearnerIds.COOKIE);
    }

    private static RequestSpecification as(String cookie) {
        return given().baseUri(app.base().toString()).cookie(LearnerIds.COOKIE, cookie);
    }

    private static io.restassured.response.Response start(String cookie) {
        return as(cookie)
                .contentType(ContentType.JSON)
                .body("{\"lesson\":\"" + LESSON + "\"}")
                .post("/api/labs");
    }

    private static void awaitStatus(String cookie, String labId, String wanted, Duration within)
            throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        String status = null;
        while (System.nanoTime() < deadline) {
            status = as(cookie)
                    .get("/api/labs/" + labId)
                    .then()
                    .statusCode(200)
                    .extract()
                    .path("status");
            if (wanted.equals(status)) {
                return;
            }
            assertThat(status).as("lab " + labId + " on its way to " + wanted).isIn("queued", "starting");
            Thread.sleep(200);
        }
        throw new AssertionError("lab " + labId + " is " + status + " after " + within.toSeconds() + " s");
    }
}
