package dev.tclab.lab;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.oneOf;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Issue 13 point 4: a learner runs one lab at a time; starting another lesson's lab offers to stop the first. */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class OneLabPerLearnerTest {

    @Inject
    FakeLabRuntime runtime;

    @Inject
    LabService labs;

    @AfterEach
    void clean() throws Exception {
        Labs.clean(labs, runtime);
    }

    private static io.restassured.response.Response start(String learner, String body) {
        return given().cookie("tclab_learner", learner)
                .contentType(ContentType.JSON)
                .body(body)
                .post("/api/labs");
    }

    @Test
    void shouldOfferToStopTheRunningLabOfAnotherLessonAndReplaceItWhenAsked() {
        String learner = Labs.newLearner();
        String first = start(learner, "{\"lesson\": \"example\"}")
                .then()
                .statusCode(202)
                .extract()
                .path("id");

        start(learner, "{\"lesson\": \"web-test\"}")
                .then()
                .statusCode(409)
                .contentType(ContentType.JSON)
                .body("error", containsString("is still running, and a learner runs one lab at a time"))
                .body("running.id", equalTo(first))
                .body("running.lesson", equalTo("example"))
                .body("running.title", equalTo("Example lesson for authors"));
        given().cookie("tclab_learner", learner)
                .get("/api/labs/" + first)
                .then()
                .statusCode(200)
                .body("status", oneOf("starting", "running"));
        start(learner, "{\"lesson\": \"example\"}").then().statusCode(200).body("id", equalTo(first));

        String second = start(learner, "{\"lesson\": \"web-test\", \"replace\": true}")
                .then()
                .statusCode(202)
                .body("lesson", equalTo("web-test"))
                .extract()
                .path("id");
        given().cookie("tclab_learner", learner)
                .get("/api/labs/" + first)
                .then()
                .statusCode(200)
                .body("status", equalTo("stopped"));
        given().cookie("tclab_learner", learner)
                .get("/api/labs")
                .then()
                .statusCode(200)
                .body(
                        "findAll { it.status in ['queued', 'starting', 'running'] }.id",
                        equalTo(java.util.List.of(second)));
    }

    @Test
    void shouldLetAnotherLearnerStartTheSameLessonsRegardless() {
        start(Labs.newLearner(), "{\"lesson\": \"example\"}").then().statusCode(202);
        start(Labs.newLearner(), "{\"lesson\": \"web-test\"}").then().statusCode(202);
    }
}
