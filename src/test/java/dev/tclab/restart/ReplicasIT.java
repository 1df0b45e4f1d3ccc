package dev.tclab.restart;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.host.TestHosts;
import dev.tclab.lab.PackagedApp;
import dev.tclab.learner.LearnerIds;
import dev.tclab.testing.RunsAlone;
import dev.tclab.web.TestSocket;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two packaged app processes on two ports, as two replicas behind a load balancer: one PostgreSQL schema (fresh for
 * this run), one engine, one instance label. A learner's requests alternate between them with the same cookie, and
 * a host watches the class on one while the learner works on the other.
 */
@RunsAlone(RunsAlone.Group.MEASUREMENTS)
class ReplicasIT {

    private static final String LESSON = "tbf-basics";
    private static final Duration CHECK_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration SOCKET_WAIT = Duration.ofSeconds(20);
    private static final String SCHEMA =
            "r_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    private static final String PASSWORD = "replica-host-password";

    private static PackagedApp a;
    private static PackagedApp b;
    private static String labId;
    private static String cookie;

    @BeforeAll
    static void startTwoReplicas() throws Exception {
        Path work = Files.createDirectories(Path.of("target/replicas-it"));
        String instance = System.getenv().getOrDefault("_TEST_TCLAB_INSTANCE", "tclab-test") + "-replicas";
        a = replica(work, instance, "a");
        b = replica(work, instance, "b");
        // One after the other: the first creates the schema and the shared keys, the second finds them.
        System.out.printf("replicas IT: A ready in %d ms%n", a.start().toMillis());
        System.out.printf("replicas IT: B ready in %d ms%n", b.start().toMillis());
    }

    private static PackagedApp replica(Path work, String instance, String name) throws IOException {
        Path logs = Files.createDirectories(work.resolve("replica-" + name));
        return new PackagedApp(Files.createTempDirectory(work, "data-"), instance, logs)
                .with("tclab.database.kind", "postgresql")
                .with("tclab.database.url", pgUrl() + (pgUrl().contains("?") ? "&" : "?") + "currentSchema=" + SCHEMA)
                .with("tclab.database.username", env("TCLAB_TEST_PG_USER", "tclab_test"))
                .with("tclab.database.password", env("TCLAB_TEST_PG_PASSWORD", "tclab_test"))
                .with("quarkus.flyway.\"postgresql\".schemas", SCHEMA);
    }

    @AfterAll
    static void stopReplicasAndCleanUp() throws Exception {
        try {
            if (a != null) {
                a.stop();
            }
            if (b != null) {
                b.stop();
            }
        } finally {
            try (Connection c = pg();
                    Statement s = c.createStatement()) {
                s.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
            }
            if (a != null) {
                assertThat(EngineAndSockets.removeContainersOf(a.instance()))
                        .as("containers of the test's instance after the sweep")
                        .isEmpty();
            }
        }
    }

    @Test
    void aLearnerAndAHostSeeOneClassWhicheverReplicaServesThem() throws Exception {
        String host = "replica" + UUID.randomUUID().toString().substring(0, 8);
        addHost(host);
        String hostCookie = given().baseUri(a.base().toString())
                .contentType(ContentType.JSON)
                .body("{\"name\": \"" + host + "\", \"password\": \"" + PASSWORD + "\"}")
                .post("/api/host/session")
                .then()
                .statusCode(200)
                .extract()
                .cookie("tclab_host");
        String eventId = given().baseUri(a.base().toString())
                .cookie("tclab_host", hostCookie)
                .contentType(ContentType.JSON)
                .body("{\"title\": \"Two replicas\", \"lessons\": [\"" + LESSON + "\"]}")
                .post("/api/host/events")
                .then()
                .statusCode(201)
                .extract()
                .path("event.id");
        String code = given().baseUri(b.base().toString())
                .cookie("tclab_host", hostCookie)
                .get("/api/host/events/" + eventId)
                .then()
                .statusCode(200)
                .extract()
                .path("event.joinCode");

        // The cookie A made is a learner B knows: both sign with the key kept in the database.
        cookie = given().baseUri(a.base().toString())
                .get("/api/labs")
                .then()
                .statusCode(200)
                .extract()
                .cookie(LearnerIds.COOKIE);
        on(b).contentType(ContentType.JSON)
                .body("{\"code\": \"" + code + "\", \"name\": \"Ann\"}")
                .post("/api/join")
                .then()
                .statusCode(200);
        List<String> steps = on(a).get("/api/lessons/" + LESSON)
                .then()
                .statusCode(200)
                .extract()
                .path("steps.id");

        // Started through A, followed through B until it runs.
        labId = on(a).contentType(ContentType.JSON)
                .body("{\"lesson\":\"" + LESSON + "\"}")
                .post("/api/labs")
                .then()
                .statusCode(202)
                .extract()
                .path("id");
        awaitStatus(b, "running");
        assertThat(on(b).get("/api/labs")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("id"))
                .as("B lists the lab A started")
                .containsExactly(labId);
        assertThat(on(b).contentType(ContentType.JSON)
                        .body("{\"lesson\":\"" + LESSON + "\"}")
                        .post("/api/labs")
                        .then()
                        .extract()
                        .<String>path("id"))
                .as("starting again through B gives the same lab")
                .isEqualTo(labId);

        // Checks on B: the baseline, then a shaper set in B's terminal.
        Map<String, Object> baseline = check(b, steps.get(0));
        assertThat(baseline.get("state"))
                .as("step 1 (baseline) checked on B: " + baseline)
                .isEqualTo("passed");
        try (TestSocket terminal = TestSocket.open(
                b.base(), "/ws/labs/" + labId + "/nodes/client/terminal", cookie, "http://localhost:" + b.port())) {
            terminal.sendBinary("tc qdisc replace dev eth1 root tbf rate 10mbit burst 32kb latency 100ms"
                    + " && echo shaped-$((40+2))\r");
            terminal.awaitOutput(out -> out.contains("shaped-42"), SOCKET_WAIT);
        }
        try (TestSocket stats =
                TestSocket.open(b.base(), "/ws/labs/" + labId + "/stats", cookie, "http://localhost:" + b.port())) {
            EngineAndSockets.awaitTbfSample(stats, SOCKET_WAIT);
        }
        Map<String, Object> shaped = check(b, steps.get(1));
        assertThat(shaped.get("state")).as("step 2 checked on B: " + shaped).isEqualTo("passed");

        // A sees the progress made on B, and the host's dashboard on A shows it.
        Map<String, Boolean> passedOnA = on(a).get("/api/labs/" + labId + "/steps")
                .then()
                .statusCode(200)
                .extract()
                .path("passed");
        assertThat(passedOnA).containsEntry(steps.get(0), true).containsEntry(steps.get(1), true);
        JsonPath dashboard = dashboardOnA(hostCookie, eventId);
        assertThat(dashboard.getInt("learners.find { it.name == 'Ann' }.stepsPassed"))
                .isEqualTo(2);
        assertThat(dashboard.getString("learners.find { it.name == 'Ann' }.labId"))
                .isEqualTo(labId);
        assertThat(dashboard.getString("learners.find { it.name == 'Ann' }.labStatus"))
                .isEqualTo("running");

        // Stopped on B: A says so at once, and the containers are gone.
        long stopAt = System.nanoTime();
        on(b).delete("/api/labs/" + labId).then().statusCode(204);
        JsonPath seenByA =
                on(a).get("/api/labs/" + labId).then().statusCode(200).extract().jsonPath();
        assertThat(seenByA.getString("status"))
                .as("the lab on A after B stopped it: " + seenByA.prettify())
                .isEqualTo("stopped");
        System.out.printf(
                "replicas IT: stop on B and read back as stopped on A in %d ms%n",
                (System.nanoTime() - stopAt) / 1_000_000);
        String statusOnDashboard =
                dashboardOnA(hostCookie, eventId).getString("learners.find { it.name == 'Ann' }.labStatus");
        assertThat(statusOnDashboard)
                .as("the dashboard on A after B stopped the lab")
                .isNotEqualTo("running");
        assertThat(EngineAndSockets.docker("ps", "-aq", "--filter", "label=tclab.lab=" + labId))
                .as("the lab's containers")
                .isEmpty();
    }

    private static JsonPath dashboardOnA(String hostCookie, String eventId) {
        return given().baseUri(a.base().toString())
                .cookie("tclab_host", hostCookie)
                .get("/api/host/events/" + eventId + "/dashboard")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    private static RequestSpecification on(PackagedApp replica) {
        return given().baseUri(replica.base().toString()).cookie(LearnerIds.COOKIE, cookie);
    }

    private static void awaitStatus(PackagedApp replica, String wanted) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        String status = null;
        while (System.nanoTime() < deadline) {
            status = on(replica)
                    .get("/api/labs/" + labId)
                    .then()
                    .statusCode(200)
                    .extract()
                    .path("status");
            if (wanted.equals(status)) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("lab " + labId + " is " + status + " after 60 s, not " + wanted);
    }

    private static Map<String, Object> check(PackagedApp replica, String step) throws InterruptedException {
        String runId = on(replica)
                .contentType(ContentType.JSON)
                .post("/api/labs/" + labId + "/steps/" + step + "/check")
                .then()
                .statusCode(202)
                .extract()
                .path("id");
        long deadline = System.nanoTime() + CHECK_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            Map<String, Object> run = on(replica)
                    .get("/api/labs/" + labId + "/checks/" + runId)
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

    private static void addHost(String name) throws SQLException {
        try (Connection c = pg();
                PreparedStatement s = c.prepareStatement("INSERT INTO " + SCHEMA
                        + ".host_account (name, password_hash, admin, created_at) VALUES (?, ?, false, ?)")) {
            s.setString(1, name);
            s.setString(2, TestHosts.hash(PASSWORD));
            s.setObject(3, OffsetDateTime.now());
            s.executeUpdate();
        }
    }

    private static Connection pg() throws SQLException {
        return DriverManager.getConnection(
                pgUrl(), env("TCLAB_TEST_PG_USER", "tclab_test"), env("TCLAB_TEST_PG_PASSWORD", "tclab_test"));
    }

    private static String pgUrl() {
        return env("TCLAB_TEST_PG_URL", "jdbc:postgresql://127.0.0.1:5432/tclab_test");
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
