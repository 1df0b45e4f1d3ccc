package dev.tclab.restart;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.lab.PackagedApp;
import dev.tclab.learner.LearnerIds;
import dev.tclab.testing.RunsAlone;
import dev.tclab.web.TestSocket;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The packaged app killed with SIGKILL and started again on the same data directory, against the real engine: the
 * learner's cookie still names them, their lab is adopted and keeps running (terminal, checks against the baseline
 * taken before the kill), their quiz and step progress is intact; a check cut off by the kill is reported as
 * interrupted and can be run again. The two scenarios share one learner and one lab, in order.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@RunsAlone(RunsAlone.Group.MEASUREMENTS)
class AppRestartIT {

    private static final String LESSON = "tbf-basics";
    private static final Duration CHECK_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration SOCKET_WAIT = Duration.ofSeconds(20);

    private static PackagedApp app;
    private static String cookie;
    private static String labId;
    private static List<String> steps;

    @BeforeAll
    static void startApp() throws Exception {
        Path work = Files.createDirectories(Path.of("target/restart-it"));
        Path dataDir = Files.createTempDirectory(work, "data-");
        String instance = System.getenv().getOrDefault("_TEST_TCLAB_INSTANCE", "tclab-test") + "-restart";
        app = new PackagedApp(dataDir, instance, work);
        Duration firstStart = app.start();
        System.out.printf("restart IT: first start ready in %d ms%n", firstStart.toMillis());
    }

    @AfterAll
    static void stopAppAndRemoveItsContainers() throws Exception {
        try {
            if (labId != null) {
                api().delete("/api/labs/" + labId);
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
    @Order(1)
    void shouldComeBackFromSigkillWithTheSameLearnerLabAndProgress() throws Exception {
        JsonPath lesson = given().baseUri(app.base().toString())
                .get("/api/lessons/" + LESSON)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        cookie = given().baseUri(app.base().toString())
                .get("/api/labs")
                .then()
                .statusCode(200)
                .extract()
                .cookie(LearnerIds.COOKIE);
        steps = lesson.getList("steps.id");
        answer(lesson.getString("introQuizzes[0].id"));
        answer(lesson.getString("steps[0].quizzes[0].id"));
        assertThat(quizzesCorrect()).isEqualTo(2);

        labId = api().contentType(ContentType.JSON)
                .body("{\"lesson\":\"" + LESSON + "\"}")
                .post("/api/labs")
                .then()
                .statusCode(202)
                .extract()
                .path("id");
        awaitRunning();
        Map<String, Object> baseline = check(steps.get(0));
        assertThat(baseline.get("state"))
                .as("step 1 (baseline) before the kill: " + baseline)
                .isEqualTo("passed");
        String createdAt = api().get("/api/labs/" + labId).then().extract().path("createdAt");

        app.kill();
        Duration restart = app.start();
        long t0 = System.nanoTime();

        // The same cookie is the same learner, and the same lab runs on, as it was.
        JsonPath lab =
                api().get("/api/labs/" + labId).then().statusCode(200).extract().jsonPath();
        assertThat(lab.getString("status")).isEqualTo("running");
        assertThat(lab.getString("createdAt")).isEqualTo(createdAt);
        assertThat(api().get("/api/labs").then().extract().jsonPath().getList("id"))
                .containsExactly(labId);
        assertThat(quizzesCorrect())
                .as("quizzes answered right before the kill")
                .isEqualTo(2);
        assertThat(passedSteps()).as("steps passed before the kill").containsEntry(steps.get(0), true);

        // A new shell on the adopted lab: echo works over the WebSocket, and commands reach the lab.
        try (TestSocket terminal = terminal()) {
            terminal.sendBinary("echo restart-$((6*7))\r");
            terminal.awaitOutput(out -> out.contains("restart-42"), SOCKET_WAIT);
            long adopted = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            System.out.printf(
                    "restart IT: restarted after SIGKILL, ready in %d ms; lab answered on a new shell"
                            + " %d ms later%n",
                    restart.toMillis(), adopted);
            terminal.sendBinary("tc qdisc replace dev eth1 root tbf rate 10mbit burst 32kb latency 100ms"
                    + " && echo shaped-$((1+1))\r");
            terminal.awaitOutput(out -> out.contains("shaped-2"), SOCKET_WAIT);
        }
        // The statistics sampler starts again for the adopted lab and sees the learner's tbf.
        try (TestSocket stats =
                TestSocket.open(app.base(), "/ws/labs/" + labId + "/stats", cookie, "http://localhost:" + app.port())) {
            EngineAndSockets.awaitTbfSample(stats, SOCKET_WAIT);
        }
        Map<String, Object> shaped = check(steps.get(1));
        assertThat(shaped.get("state"))
                .as("step 2 after the restart: " + shaped)
                .isEqualTo("passed");
    }

    @Test
    @Order(2)
    void shouldReportACheckCutOffBySigkillAsInterruptedAndPassItAgain() throws Exception {
        assertThat(labId).as("the first scenario's lab").isNotNull();
        try (TestSocket terminal = terminal()) {
            terminal.sendBinary("tc qdisc del dev eth1 root; echo unshaped-$((2+1))\r");
            terminal.awaitOutput(out -> out.contains("unshaped-3"), SOCKET_WAIT);
        }
        String last = steps.get(steps.size() - 1);
        String runId = api().contentType(ContentType.JSON)
                .post("/api/labs/" + labId + "/steps/" + last + "/check")
                .then()
                .statusCode(202)
                .extract()
                .path("id");
        awaitState(runId, "measuring");
        Thread.sleep(500);
        app.kill();
        Duration restart = app.start();
        System.out.printf("restart IT: restarted after a SIGKILL during a check, ready in %d ms%n", restart.toMillis());

        JsonPath cut = api().get("/api/labs/" + labId + "/checks/" + runId)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(cut.getBoolean("finished"))
                .as("the cut-off run is over: " + cut.prettify())
                .isTrue();
        assertThat(cut.getString("state")).isEqualTo("interrupted");
        assertThat(cut.getString("detail").toLowerCase(Locale.ROOT))
                .contains("server stopped")
                .contains("check again");

        Map<String, Object> again = check(last);
        assertThat(again.get("state"))
                .as("the last step checked again after the restart: " + again)
                .isEqualTo("passed");
        Map<String, Boolean> passed = passedSteps();
        assertThat(passed)
                .containsEntry(steps.get(0), true)
                .containsEntry(steps.get(1), true)
                .containsEntry(last, true);
        assertThat(quizzesCorrect()).isEqualTo(2);
    }

    private static RequestSpecification api() {
        return given().baseUri(app.base().toString()).cookie(LearnerIds.COOKIE, cookie);
    }

    /** Answers the quiz right: option after option (right answers sit anywhere), until the server says correct. */
    private static void answer(String quizId) {
        for (int choice = 0; choice < 6; choice++) {
            boolean correct = api().contentType(ContentType.JSON)
                    .body("{\"choices\":[" + choice + "]}")
                    .post("/api/lessons/" + LESSON + "/quizzes/" + quizId)
                    .then()
                    .statusCode(200)
                    .extract()
                    .path("correct");
            if (correct) {
                return;
            }
        }
        throw new AssertionError("quiz " + quizId + ": no option was right");
    }

    private static int quizzesCorrect() {
        List<Map<String, Object>> lessons =
                api().get("/api/lessons").then().statusCode(200).extract().path("$");
        Map<String, Object> tbf = lessons.stream()
                .filter(l -> LESSON.equals(l.get("slug")))
                .findFirst()
                .orElseThrow();
        @SuppressWarnings("unchecked")
        Map<String, Object> progress = (Map<String, Object>) tbf.get("progress");
        return (Integer) progress.get("quizzesCorrect");
    }

    private static Map<String, Boolean> passedSteps() {
        return api().get("/api/labs/" + labId + "/steps")
                .then()
                .statusCode(200)
                .extract()
                .path("passed");
    }

    private static void awaitRunning() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        String status = null;
        while (System.nanoTime() < deadline) {
            status = api().get("/api/labs/" + labId)
                    .then()
                    .statusCode(200)
                    .extract()
                    .path("status");
            if ("running".equals(status)) {
                return;
            }
            assertThat(status).isIn("starting");
            Thread.sleep(200);
        }
        throw new AssertionError("lab " + labId + " is " + status + " after 60 s");
    }

    /** Runs the step's check and returns the finished run. */
    private static Map<String, Object> check(String step) throws InterruptedException {
        String runId = api().contentType(ContentType.JSON)
                .post("/api/labs/" + labId + "/steps/" + step + "/check")
                .then()
                .statusCode(202)
                .extract()
                .path("id");
        long deadline = System.nanoTime() + CHECK_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            Map<String, Object> run = api().get("/api/labs/" + labId + "/checks/" + runId)
                    .then()
                    .statusCode(200)
                    .extract()
                    .path("$");
            if (Boolean.TRUE.equals(run.get("finished"))) {
                return run;
            }
            Thread.sleep(300);
        }
        throw new AssertionError("check of step " + step + " did not finish within " + CHECK_TIMEOUT);
    }

    private static void awaitState(String runId, String state) throws InterruptedException {
        long deadline = System.nanoTime() + CHECK_TIMEOUT.toNanos();
        String now = null;
        while (System.nanoTime() < deadline) {
            now = api().get("/api/labs/" + labId + "/checks/" + runId)
                    .then()
                    .statusCode(200)
                    .extract()
                    .path("state");
            if (state.equals(now)) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("check run " + runId + " never reached " + state + " (last: " + now + ")");
    }

    private static TestSocket terminal() throws Exception {
        return TestSocket.open(
                app.base(), "/ws/labs/" + labId + "/nodes/client/terminal", cookie, "http://localhost:" + app.port());
    }
}
