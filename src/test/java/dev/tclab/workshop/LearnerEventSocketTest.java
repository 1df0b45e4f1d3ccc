package dev.tclab.workshop;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tclab.host.HostAccounts;
import dev.tclab.host.TestHosts;
import dev.tclab.lab.FakeRuntimeProfile;
import dev.tclab.lab.Labs;
import dev.tclab.web.TestSocket;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A learner's pages hear of their workshop over /ws/workshop: the event at once, then each broadcast and the close
 * within 2 s, pushed; a self-paced learner hears null and nothing of other events. The host dashboard carries the
 * server's lab and engine state.
 */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class LearnerEventSocketTest {

    /** What the issue allows between a host's action and the learners' pages showing it. */
    private static final Duration LIVE = Duration.ofSeconds(2);

    @TestHTTPResource("/")
    URI base;

    @Inject
    HostAccounts accounts;

    @Test
    void broadcastsAndTheCloseReachTheLearnersSocketWithinTwoSeconds() throws Exception {
        String host = TestHosts.signedIn(accounts, "live");
        String event = given().cookie("tclab_host", host)
                .contentType(ContentType.JSON)
                .body("{\"title\": \"Live class\", \"lessons\": [\"example\"]}")
                .post("/api/host/events")
                .then()
                .statusCode(201)
                .extract()
                .path("event.id");
        String code = given().cookie("tclab_host", host)
                .get("/api/host/events/" + event)
                .then()
                .extract()
                .path("event.joinCode");
        String ann = Labs.newLearner();
        given().cookie("tclab_learner", ann)
                .contentType(ContentType.JSON)
                .body("{\"code\": \"" + code + "\", \"name\": \"Ann\"}")
                .post("/api/join")
                .then()
                .statusCode(200);
        String origin = TestSocket.originOf(base);

        try (TestSocket annPage = TestSocket.open(base, "/ws/workshop", ann, origin);
                TestSocket strangerPage = TestSocket.open(base, "/ws/workshop", Labs.newLearner(), origin)) {
            assertThat(annPage.nextText(LIVE))
                    .contains("\"title\":\"Live class\"")
                    .contains("\"displayName\":\"Ann\"")
                    .contains("\"status\":\"open\"");
            assertThat(strangerPage.nextText(LIVE)).isEqualTo("null");

            long sent = System.nanoTime();
            given().cookie("tclab_host", host)
                    .contentType(ContentType.JSON)
                    .body("{\"text\": \"Break until 11:00\"}")
                    .post("/api/host/events/" + event + "/messages")
                    .then()
                    .statusCode(204);
            assertThat(annPage.nextText(LIVE)).contains("Break until 11:00");
            assertThat(Duration.ofNanos(System.nanoTime() - sent)).isLessThan(LIVE);

            given().cookie("tclab_host", host)
                    .contentType(ContentType.JSON)
                    .post("/api/host/events/" + event + "/close")
                    .then()
                    .statusCode(200);
            String closed = annPage.nextText(LIVE);
            assertThat(closed).contains("\"status\":\"closed\"").contains("\"endsAt\":\"");
            assertThrows(
                    AssertionError.class, () -> strangerPage.nextText(Duration.ofMillis(500)), "no other event's news");
        }

        given().cookie("tclab_host", host)
                .get("/api/host/events/" + event + "/dashboard")
                .then()
                .statusCode(200)
                .body("server.maxRunning", equalTo(3))
                .body("server.engineReachable", equalTo(true))
                .body("server.running", org.hamcrest.Matchers.greaterThanOrEqualTo(0));
        given().cookie("tclab_learner", ann)
                .get("/api/workshop/mine")
                .then()
                .statusCode(200)
                .body("status", equalTo("closed"))
                .body("messages.text", org.hamcrest.Matchers.hasItem(containsString("Break")));
    }

    /**
     * The host stops Ann's lab: her socket hears it at once in the host's words, her terminal says so too (not
     * "idle", no lab id), and once the workshop is closed she starts its lesson's lab again, on her own.
     */
    @Test
    void aStoppedLabIsExplainedAndAClosedWorkshopsLearnerCarriesOnAlone() throws Exception {
        String host = TestHosts.signedIn(accounts, "notice");
        String event = given().cookie("tclab_host", host)
                .contentType(ContentType.JSON)
                .body("{\"title\": \"Notice class\", \"lessons\": [\"example\"]}")
                .post("/api/host/events")
                .then()
                .statusCode(201)
                .extract()
                .path("event.id");
        String code = given().cookie("tclab_host", host)
                .get("/api/host/events/" + event)
                .then()
                .extract()
                .path("event.joinCode");
        String ann = Labs.newLearner();
        String annId = ann.substring(0, ann.lastIndexOf('.'));
        given().cookie("tclab_learner", ann)
                .contentType(ContentType.JSON)
                .body("{\"code\": \"" + code + "\", \"name\": \"Ann\"}")
                .post("/api/join")
                .then()
                .statusCode(200);
        String lab = given().cookie("tclab_learner", ann)
                .contentType(ContentType.JSON)
                .body("{\"lesson\": \"example\"}")
                .post("/api/labs")
                .then()
                .statusCode(202)
                .extract()
                .path("id");
        for (int i = 0;
                i < 100
                        && !"running"
                                .equals(given().cookie("tclab_learner", ann)
                                        .get("/api/labs/" + lab)
                                        .then()
                                        .extract()
                                        .path("status"));
                i++) {
            Thread.sleep(100);
        }
        String origin = TestSocket.originOf(base);
        try (TestSocket annPage = TestSocket.open(base, "/ws/workshop", ann, origin)) {
            assertThat(annPage.nextText(LIVE)).contains("\"title\":\"Notice class\"");
            long sent = System.nanoTime();
            given().cookie("tclab_host", host)
                    .contentType(ContentType.JSON)
                    .post("/api/host/events/" + event + "/learners/" + annId + "/stop")
                    .then()
                    .statusCode(200);
            assertThat(annPage.nextText(LIVE))
                    .contains("\"notice\"")
                    .contains("\"kind\":\"ended\"")
                    .contains("\"labId\":\"" + lab + "\"")
                    .contains("Your host stopped your lab.");
            assertThat(Duration.ofNanos(System.nanoTime() - sent)).isLessThan(LIVE);
        }
        try (TestSocket terminal = TestSocket.open(base, "/ws/labs/" + lab + "/nodes/client/terminal", ann, origin)) {
            assertThat(terminal.nextText(LIVE))
                    .contains("Your lab is not running any more. Your host stopped your lab.")
                    .doesNotContain(lab)
                    .doesNotContain("idle");
        }
        given().cookie("tclab_host", host)
                .contentType(ContentType.JSON)
                .post("/api/host/events/" + event + "/close")
                .then()
                .statusCode(200);
        // A learner whose workshop closed carries on alone, as any learner of the server does.
        given().cookie("tclab_learner", ann)
                .contentType(ContentType.JSON)
                .body("{\"lesson\": \"example\"}")
                .post("/api/labs")
                .then()
                .statusCode(org.hamcrest.Matchers.oneOf(200, 202));
    }
}
