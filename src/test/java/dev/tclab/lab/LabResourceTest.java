package dev.tclab.lab;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.notNullValue;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The labs API as a browser uses it: the learner cookie decides whose labs are visible. */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class LabResourceTest {

    private static final String LESSON = "example";

    @Inject
    FakeLabRuntime runtime;

    @Inject
    LabService labs;

    @Inject
    io.quarkus.scheduler.Scheduler scheduler;

    @AfterEach
    void clean() throws Exception {
        Labs.clean(labs, runtime);
    }

    private static String startLab(String learner) {
        return given().cookie("tclab_learner", learner)
                .contentType(ContentType.JSON)
                .body("{\"lesson\": \"" + LESSON + "\"}")
                .post("/api/labs")
                .then()
                .statusCode(202)
                .body("status", org.hamcrest.Matchers.oneOf("starting", "running"))
                .extract()
                .path("id");
    }

    /** Polls the lab, as the page does, until it runs (the fake runtime starts it at once), for a second at most. */
    private static void awaitRunning(String learner, String id) throws InterruptedException {
        for (int i = 0;
                i < 100
                        && !"running"
                                .equals(given().cookie("tclab_learner", learner)
                                        .get("/api/labs/" + id)
                                        .path("status"));
                i++) {
            Thread.sleep(10);
        }
    }

    @Test
    void shouldStartALabAndShowItsNodesAndInterfaces() throws Exception {
        String learner = Labs.newLearner();
        String id = startLab(learner);
        awaitRunning(learner, id);
        given().cookie("tclab_learner", learner)
                .get("/api/labs/" + id)
                .then()
                .statusCode(200)
                .body("status", equalTo("running"))
                .body("stage", equalTo("ready"))
                .body("lesson", equalTo(LESSON))
                .body("nodes.name", hasItems("client", "server"))
                .body("nodes[0].interfaces", hasItems("eth1"))
                .body("nodes[0].terminal", equalTo(true))
                .body("readyAt", notNullValue())
                .body("expiresAt", notNullValue());
        given().cookie("tclab_learner", learner)
                .contentType(ContentType.JSON)
                .body("{\"lesson\": \"" + LESSON + "\"}")
                .post("/api/labs")
                .then()
                .statusCode(200)
                .body("id", equalTo(id));
    }

    @Test
    void shouldAnswerAPollFromWhatTheServerKnowsAndShowADeadLabFromTheNextCull() throws Exception {
        String learner = Labs.newLearner();
        String id = startLab(learner);
        awaitRunning(learner, id);
        // No cull round (which asks the engine) may run between the counts.
        scheduler.pause();
        try {
            int before = runtime.statusCalls.get();
            for (int i = 0; i < 5; i++) {
                given().cookie("tclab_learner", learner)
                        .get("/api/labs/" + id)
                        .then()
                        .statusCode(200)
                        .body("status", equalTo("running"));
            }
            org.assertj.core.api.Assertions.assertThat(runtime.statusCalls.get())
                    .as("engine calls for five polls")
                    .isEqualTo(before);
        } finally {
            scheduler.resume();
        }

        runtime.running.remove(id);
        labs.cull(java.time.Instant.now());
        given().cookie("tclab_learner", learner)
                .get("/api/labs/" + id)
                .then()
                .statusCode(200)
                .body("status", equalTo("failed"))
                .body("reason", containsString("The lab died"));
    }

    @Test
    void shouldNotShowOrStopAnotherLearnersLab() {
        String id = startLab(Labs.newLearner());
        String intruder = Labs.newLearner();
        given().cookie("tclab_learner", intruder)
                .get("/api/labs/" + id)
                .then()
                .statusCode(404)
                .body("error", containsString("You have no such lab"));
        given().cookie("tclab_learner", intruder)
                .delete("/api/labs/" + id)
                .then()
                .statusCode(404);
        given().cookie("tclab_learner", intruder)
                .get("/api/labs")
                .then()
                .statusCode(200)
                .body("size()", equalTo(0));
    }

    @Test
    void shouldIgnoreAForgedLearnerCookie() {
        String learner = Labs.newLearner();
        String id = startLab(learner);
        String forged = learner.substring(0, learner.indexOf('.')) + ".forged-signature";
        given().cookie("tclab_learner", forged).get("/api/labs/" + id).then().statusCode(404);
    }

    @Test
    void shouldStopALab() {
        String learner = Labs.newLearner();
        String id = startLab(learner);
        given().cookie("tclab_learner", learner)
                .delete("/api/labs/" + id)
                .then()
                .statusCode(204);
        given().cookie("tclab_learner", learner)
                .get("/api/labs/" + id)
                .then()
                .statusCode(200)
                .body("status", equalTo("stopped"))
                .body("reason", equalTo("Stopped by the learner."));
    }

    @Test
    void shouldExplainBadRequests() {
        String learner = Labs.newLearner();
        given().cookie("tclab_learner", learner)
                .contentType(ContentType.JSON)
                .body("{}")
                .post("/api/labs")
                .then()
                .statusCode(400)
                .body("error", containsString("{\"lesson\": \"<slug>\"}"));
        given().cookie("tclab_learner", learner)
                .contentType(ContentType.JSON)
                .body("{\"lesson\": \"no-such\"}")
                .post("/api/labs")
                .then()
                .statusCode(404)
                .body("error", equalTo("There is no lesson 'no-such'."));
        given().cookie("tclab_learner", learner)
                .contentType(ContentType.JSON)
                .body("{\"lesson\": ")
                .post("/api/labs")
                .then()
                .statusCode(400);
    }

    @Test
    void shouldQueueWhenTheServerIsFullAndSayWhenTheQueueIsFullToo() {
        startLab(Labs.newLearner());
        startLab(Labs.newLearner());
        startLab(Labs.newLearner());
        String waiting = null;
        for (int position = 1; position <= 2; position++) {
            waiting = Labs.newLearner();
            given().cookie("tclab_learner", waiting)
                    .contentType(ContentType.JSON)
                    .body("{\"lesson\": \"" + LESSON + "\"}")
                    .post("/api/labs")
                    .then()
                    .statusCode(202)
                    .body("status", equalTo("queued"))
                    .body("queue.position", equalTo(position))
                    .body("queue.waiting", equalTo(position));
        }
        given().cookie("tclab_learner", waiting)
                .get("/")
                .then()
                .statusCode(200)
                .body(containsString("Your lab for this lesson is waiting for a free slot."));
        given().cookie("tclab_learner", Labs.newLearner())
                .contentType(ContentType.JSON)
                .body("{\"lesson\": \"" + LESSON + "\"}")
                .post("/api/labs")
                .then()
                .statusCode(503)
                .header("Retry-After", "60")
                .body("error", containsString("The server is full"));
    }

    @Test
    void shouldSayWhenDockerIsDown() {
        runtime.reachable = false;
        given().cookie("tclab_learner", Labs.newLearner())
                .contentType(ContentType.JSON)
                .body("{\"lesson\": \"" + LESSON + "\"}")
                .post("/api/labs")
                .then()
                .statusCode(503)
                .body("error", containsString("The Docker engine does not answer"));
    }
}
