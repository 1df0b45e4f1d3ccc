package dev.tclab.lab;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.host.HostAccounts;
import dev.tclab.host.TestHosts;
import dev.tclab.runtime.NodeStatus;
import dev.tclab.runtime.RuntimeAdapter;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * On the real engine: a learner seated in a workshop gets a lab with the workshop's lifetime, and the cull removes
 * its containers once that lifetime is over, while a self-paced learner's lab, under the server's lifetime, runs on.
 */
@QuarkusTest
class WorkshopLabTermsIT {

    private static final String LESSON = "example";

    @Inject
    LabService labs;

    @Inject
    RuntimeAdapter runtime;

    @Inject
    HostAccounts accounts;

    @AfterEach
    void stopAll() throws Exception {
        Labs.stopAll(labs);
    }

    private static Lab awaitRunning(LabService labs, String learner, String id) throws Exception {
        String owner = learner.substring(0, learner.lastIndexOf('.'));
        Lab lab = labs.get(id, owner);
        for (int i = 0; i < 600 && lab.phase() != LabPhase.RUNNING; i++) {
            Thread.sleep(100);
        }
        assertThat(lab.phase()).as(String.valueOf(lab.reason())).isEqualTo(LabPhase.RUNNING);
        return lab;
    }

    private static String start(String learner) {
        return given().cookie("tclab_learner", learner)
                .contentType(ContentType.JSON)
                .body("{\"lesson\": \"" + LESSON + "\"}")
                .post("/api/labs")
                .then()
                .statusCode(202)
                .extract()
                .path("id");
    }

    @Test
    void aWorkshopLabEndsAfterTheWorkshopsLifetimeOnTheEngineAndASelfPacedOneRunsOn() throws Exception {
        String host = TestHosts.signedIn(accounts, "itterms");
        String event = given().cookie("tclab_host", host)
                .contentType(ContentType.JSON)
                .body("{\"title\": \"Short class\", \"lessons\": [\"" + LESSON + "\"], \"idleTimeoutMinutes\": 10, "
                        + "\"lifetimeMinutes\": 15}")
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
        String seated = Labs.newLearner();
        given().cookie("tclab_learner", seated)
                .contentType(ContentType.JSON)
                .body("{\"code\": \"" + code + "\", \"name\": \"Ann\"}")
                .post("/api/join")
                .then()
                .statusCode(200);
        String selfPaced = Labs.newLearner();

        Lab workshopLab = awaitRunning(labs, seated, start(seated));
        Lab ownLab = awaitRunning(labs, selfPaced, start(selfPaced));
        Instant endsAt = Instant.parse(given().cookie("tclab_learner", seated)
                .get("/api/labs/" + workshopLab.id())
                .then()
                .statusCode(200)
                .extract()
                .path("endsAt"));
        assertThat(endsAt).isEqualTo(workshopLab.createdAt().plus(Duration.ofMinutes(15)));
        assertThat(runtime.labsOnEngine()).contains(workshopLab.id(), ownLab.id());

        // Sixteen minutes on, both labs busy and watched: only the workshop's lifetime is over.
        Instant later = Instant.now().plus(Duration.ofMinutes(16));
        for (Lab lab : new Lab[] {workshopLab, ownLab}) {
            lab.touch(later);
            lab.watched(later);
        }
        labs.cull(later);
        assertThat(workshopLab.phase()).isEqualTo(LabPhase.STOPPED);
        assertThat(workshopLab.reason())
                .isEqualTo("Stopped after the workshop's lab lifetime of 15 minutes. "
                        + "Start it again from the lesson if the workshop goes on.");
        assertThat(ownLab.phase()).isEqualTo(LabPhase.RUNNING);
        assertThat(runtime.labsOnEngine()).doesNotContain(workshopLab.id()).contains(ownLab.id());
        assertThat(runtime.status(ownLab.id())).isNotEmpty().allMatch(NodeStatus::running);
    }
}
