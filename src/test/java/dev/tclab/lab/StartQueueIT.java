package dev.tclab.lab;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import dev.tclab.runtime.NodeStatus;
import dev.tclab.runtime.RuntimeAdapter;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The start queue on the real engine: a server with one slot queues the second lab and starts it once freed. */
@QuarkusTest
@TestProfile(OneSlotZeroGraceProfile.class)
class StartQueueIT {

    private static final String LESSON = "example";

    @Inject
    LabService labs;

    @Inject
    RuntimeAdapter runtime;

    @AfterEach
    void stopAll() throws Exception {
        for (Lab lab : labs.all()) {
            if (lab.phase().live()) {
                labs.stop(lab.id(), lab.owner());
            }
        }
    }

    private static io.restassured.response.Response start(String learner) {
        return given().cookie("tclab_learner", learner)
                .contentType(ContentType.JSON)
                .body("{\"lesson\": \"" + LESSON + "\"}")
                .post("/api/labs");
    }

    private static String statusOf(String learner, String id) {
        return given().cookie("tclab_learner", learner).get("/api/labs/" + id).path("status");
    }

    private static void awaitRunning(String learner, String id) throws InterruptedException {
        for (int i = 0; i < 300 && !"running".equals(statusOf(learner, id)); i++) {
            Thread.sleep(100);
        }
        assertThat(statusOf(learner, id)).isEqualTo("running");
    }

    @Test
    void shouldQueueTheSecondLabAndStartItOnTheEngineWhenTheFirstStops() throws Exception {
        String ann = Labs.newLearner();
        String bob = Labs.newLearner();
        String first = start(ann).then().statusCode(202).extract().path("id");
        awaitRunning(ann, first);

        String second = start(bob)
                .then()
                .statusCode(202)
                .body("status", equalTo("queued"))
                .body("queue.position", equalTo(1))
                .body("stage", nullValue())
                .extract()
                .path("id");
        start(Labs.newLearner()).then().statusCode(503).body("error", containsString("queue's limit"));
        assertThat(runtime.labsOnEngine()).as("a queued lab has no containers").containsOnly(first);

        given().cookie("tclab_learner", ann).delete("/api/labs/" + first).then().statusCode(204);
        awaitRunning(bob, second);
        List<NodeStatus> nodes = runtime.status(second);
        assertThat(nodes).isNotEmpty().allMatch(NodeStatus::running);
        given().cookie("tclab_learner", bob).get("/api/labs/" + second).then().body("queue", nullValue());
    }
}
