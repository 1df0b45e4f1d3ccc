package dev.tclab.runtime.docker;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.lab.PackagedApp;
import dev.tclab.learner.LearnerIds;
import dev.tclab.testing.RunsAlone;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 25, item 8: the app on a remote engine over TLS, as the README documents it (DOCKER_HOST, DOCKER_TLS_VERIFY,
 * DOCKER_CERT_PATH). A second, private dockerd listens on TCP with TLS (certificates made by the test), the lab image
 * is copied into it from the shared engine, and the packaged app is pointed at it: a lab starts there (and only
 * there) and a check passes; with a client certificate the engine does not accept, the app says so.
 */
@RunsAlone(RunsAlone.Group.MEASUREMENTS)
class RemoteEngineIT {

    private static final String IMAGE = "tclab/lab-node:1";
    private static final String LESSON = "tbf-basics";
    private static PrivateEngine engine;
    private static Path work;
    private static String instance;
    private PackagedApp app;
    private String cookie;

    @BeforeAll
    static void startPrivateEngine() throws Exception {
        work = Files.createDirectories(Path.of("target/remote-engine-it").toAbsolutePath());
        instance = System.getenv().getOrDefault("_TEST_TCLAB_INSTANCE", "tclab-test") + "-remote";
        // Under /tmp, not target/: containerd's socket path under the exec root must stay short.
        long t0 = System.nanoTime();
        engine = PrivateEngine.start(
                Path.of("/tmp/tclab-engine-" + UUID.randomUUID().toString().substring(0, 8)), PrivateEngine.freePort());
        long started = System.nanoTime();
        engine.loadImage(IMAGE);
        System.out.printf(
                "remote engine IT: private dockerd up in %.1f s, lab image loaded in %.1f s%n",
                (started - t0) / 1e9, (System.nanoTime() - started) / 1e9);
    }

    @AfterAll
    static void stopPrivateEngine() throws Exception {
        if (engine != null) {
            engine.close();
        }
    }

    @AfterEach
    void stopApp() throws Exception {
        if (app != null) {
            app.stop();
        }
    }

    private PackagedApp appWith(Path certs) throws Exception {
        app = new PackagedApp(Files.createTempDirectory(work, "data-"), instance, work)
                .environment("DOCKER_HOST", engine.tcpHost())
                .environment("DOCKER_TLS_VERIFY", "1")
                .environment("DOCKER_CERT_PATH", certs.toString());
        return app;
    }

    private RequestSpecification api() {
        return given().baseUri(app.base().toString()).cookie(LearnerIds.COOKIE, cookie);
    }

    @Test
    void shouldRunALabAndPassACheckOnARemoteEngineOverTls() throws Exception {
        appWith(engine.clientCerts()).start();
        JsonPath system = given().baseUri(app.base().toString())
                .get("/api/system")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(system.getBoolean("docker.reachable")).as(system.prettify()).isTrue();
        assertThat(system.getString("docker.endpoint")).isEqualTo(engine.tcpHost());
        assertThat(system.getBoolean("labImagePresent"))
                .as("the image loaded into the private engine")
                .isTrue();

        cookie = given().baseUri(app.base().toString())
                .get("/api/labs")
                .then()
                .statusCode(200)
                .extract()
                .cookie(LearnerIds.COOKIE);
        String labId = api().contentType(ContentType.JSON)
                .body("{\"lesson\":\"" + LESSON + "\"}")
                .post("/api/labs")
                .then()
                .statusCode(202)
                .extract()
                .path("id");
        awaitRunning(labId);
        assertThat(engine.containers("tclab.lab=" + labId))
                .as("the lab's containers on the private engine")
                .isNotBlank();
        assertThat(PrivateEngine.sharedContainers("tclab.lab=" + labId))
                .as("nothing of the lab on the shared engine")
                .isBlank();

        List<String> steps = api().get("/api/lessons/" + LESSON)
                .then()
                .statusCode(200)
                .extract()
                .path("steps.id");
        Map<String, Object> baseline = check(labId, steps.get(0));
        assertThat(baseline.get("state"))
                .as("step 1 of " + LESSON + " on the remote engine: " + baseline)
                .isEqualTo("passed");

        api().delete("/api/labs/" + labId).then().statusCode(204);
        assertThat(engine.containers("tclab.lab=" + labId))
                .as("the stopped lab is gone from the engine")
                .isBlank();
    }

    @Test
    void shouldSayTheEngineRefusedTheCertificate() throws Exception {
        appWith(engine.strangerCerts()).start("q/health/live");
        JsonPath system = given().baseUri(app.base().toString())
                .get("/api/system")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        System.out.println("remote engine IT: with a certificate of another CA, /api/system says: "
                + system.getString("docker.error") + " / " + system.getString("problem"));
        assertThat(system.getBoolean("docker.reachable")).isFalse();
        assertThat(system.getBoolean("ready")).isFalse();
        assertThat(system.getString("docker.error"))
                .containsIgnoringCase("certificate")
                .contains("DOCKER_CERT_PATH");
        assertThat(system.getString("problem")).contains(engine.tcpHost()).containsIgnoringCase("certificate");

        cookie = given().baseUri(app.base().toString())
                .get("/api/labs")
                .then()
                .extract()
                .cookie(LearnerIds.COOKIE);
        String refusal = api().contentType(ContentType.JSON)
                .body("{\"lesson\":\"" + LESSON + "\"}")
                .post("/api/labs")
                .then()
                .statusCode(503)
                .extract()
                .path("error");
        System.out.println("remote engine IT: a lab start is refused with: " + refusal);
        assertThat(refusal).containsIgnoringCase("certificate");
        assertThat(engine.containers("tclab.instance=" + instance))
                .as("nothing was created")
                .isBlank();
    }

    private void awaitRunning(String labId) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        String status = null;
        while (System.nanoTime() < deadline) {
            JsonPath lab = api().get("/api/labs/" + labId)
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            status = lab.getString("status");
            if ("running".equals(status)) {
                return;
            }
            assertThat(status)
                    .as("lab " + labId + ": " + lab.getString("reason"))
                    .isIn("starting", "queued");
            Thread.sleep(200);
        }
        throw new AssertionError("lab " + labId + " is " + status + " after 120 s");
    }

    private Map<String, Object> check(String labId, String step) throws InterruptedException {
        String runId = api().contentType(ContentType.JSON)
                .post("/api/labs/" + labId + "/steps/" + step + "/check")
                .then()
                .statusCode(202)
                .extract()
                .path("id");
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            Map<String, Object> run = api().get("/api/labs/" + labId + "/checks/" + runId)
                    .then()
                    .statusCode(200)
                    .extract()
                    .path("$");
            if (Boolean.TRUE.equals(run.get("finished"))) {
                return run;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("check " + runId + " did not finish within 120 s");
    }
}
