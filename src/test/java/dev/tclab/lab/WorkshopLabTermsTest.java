package dev.tclab.lab;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;

import dev.tclab.host.HostAccounts;
import dev.tclab.host.TestHosts;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A learner seated in a workshop gets the workshop's idle timeout and lab lifetime (never beyond its closing time)
 * for labs of its lessons, shown in the lab's API and applied by the cull; a self-paced learner keeps the server's.
 * A host's reset replaces the learner's lab with a fresh one of the same lesson, recorded.
 */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class WorkshopLabTermsTest {

    private static final String LESSON = "example";

    @Inject
    LabService labs;

    @Inject
    FakeLabRuntime runtime;

    @Inject
    HostAccounts accounts;

    private String host;

    @BeforeEach
    void signIn() throws Exception {
        Labs.clean(labs, runtime);
        host = TestHosts.signedIn(accounts, "terms");
    }

    @AfterEach
    void clean() throws Exception {
        Labs.clean(labs, runtime);
    }

    /** Creates an event with {@code extra} JSON fields and seats a new learner in it; returns the learner's cookie. */
    private String seatedLearner(String extra) {
        String event = given().cookie("tclab_host", host)
                .contentType(ContentType.JSON)
                .body("{\"title\": \"Terms\", \"lessons\": [\"" + LESSON + "\"]" + extra + "}")
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
        String learner = Labs.newLearner();
        given().cookie("tclab_learner", learner)
                .contentType(ContentType.JSON)
                .body("{\"code\": \"" + code + "\", \"name\": \"Ann\"}")
                .post("/api/join")
                .then()
                .statusCode(200);
        lastEvent = event;
        return learner;
    }

    private String lastEvent;

    private Lab runningLab(String learner) throws Exception {
        String id = given().cookie("tclab_learner", learner)
                .contentType(ContentType.JSON)
                .body("{\"lesson\": \"" + LESSON + "\"}")
                .post("/api/labs")
                .then()
                .statusCode(202)
                .extract()
                .path("id");
        Lab lab = labs.get(id, learnerId(learner));
        for (int i = 0; i < 100 && lab.phase() != LabPhase.RUNNING; i++) {
            Thread.sleep(20);
        }
        assertThat(lab.phase()).isEqualTo(LabPhase.RUNNING);
        return lab;
    }

    private static String learnerId(String cookie) {
        return cookie.substring(0, cookie.lastIndexOf('.'));
    }

    private static Instant instant(String learner, String labId, String field) {
        return Instant.parse(given().cookie("tclab_learner", learner)
                .get("/api/labs/" + labId)
                .then()
                .statusCode(200)
                .extract()
                .path(field));
    }

    @Test
    void aSeatedLearnersLabHasTheEventsIdleTimeoutAndLifetimeAndTheCullAppliesThem() throws Exception {
        String seated = seatedLearner(", \"idleTimeoutMinutes\": 5, \"lifetimeMinutes\": 30");
        Lab eventLab = runningLab(seated);
        Lab selfPaced = runningLab(Labs.newLearner());

        assertThat(eventLab.terms().idleTimeout()).isEqualTo(Duration.ofMinutes(5));
        assertThat(eventLab.terms().endsAt()).isEqualTo(eventLab.createdAt().plus(Duration.ofMinutes(30)));
        assertThat(instant(seated, eventLab.id(), "endsAt"))
                .isEqualTo(eventLab.createdAt().plus(Duration.ofMinutes(30)));
        assertThat(instant(seated, eventLab.id(), "expiresAt"))
                .isCloseTo(Instant.now().plus(Duration.ofMinutes(5)), within(Duration.ofSeconds(30)));
        assertThat(selfPaced.terms().idleTimeout()).isEqualTo(Duration.ofMinutes(45));
        assertThat(selfPaced.terms().endsAt()).isEqualTo(selfPaced.createdAt().plus(Duration.ofHours(4)));

        labs.cull(Instant.now().plus(Duration.ofMinutes(6)));
        assertThat(eventLab.phase()).isEqualTo(LabPhase.STOPPED);
        assertThat(eventLab.reason()).isEqualTo("Stopped after being idle for 5 minutes.");
        assertThat(selfPaced.phase())
                .as("the server's 45 idle minutes apply to a self-paced lab")
                .isEqualTo(LabPhase.RUNNING);
    }

    @Test
    void aLabEndsAtTheEventsClosingTimeWhenThatComesBeforeItsLifetime() throws Exception {
        Instant closes = Instant.now().plus(Duration.ofMinutes(20)).truncatedTo(ChronoUnit.SECONDS);
        String seated = seatedLearner(", \"lifetimeMinutes\": 120, \"closesAt\": \"" + closes + "\"");
        Lab lab = runningLab(seated);
        assertThat(lab.terms().endsAt()).isEqualTo(closes);
        assertThat(instant(seated, lab.id(), "endsAt")).isEqualTo(closes);

        Instant before = closes.minusSeconds(30);
        lab.touch(before);
        lab.watched(before);
        labs.cull(before);
        assertThat(lab.phase()).isEqualTo(LabPhase.RUNNING);
        lab.touch(closes);
        lab.watched(closes);
        labs.cull(closes);
        assertThat(lab.phase()).isEqualTo(LabPhase.STOPPED);
        assertThat(lab.reason()).contains("the workshop \"Terms\" ended at");
    }

    @Test
    void anEventCannotOutliveTheServersMaximumLabLifetime() {
        given().cookie("tclab_host", host)
                .contentType(ContentType.JSON)
                .body("{\"title\": \"Long\", \"lessons\": [\"" + LESSON + "\"], \"lifetimeMinutes\": 241}")
                .post("/api/host/events")
                .then()
                .statusCode(400)
                .body("error", containsString("The lab lifetime must be 15 to 240 minutes"));
    }

    @Test
    void aResetReplacesTheLearnersLabWithAFreshOneAndIsRecorded() throws Exception {
        String seated = seatedLearner("");
        Lab old = runningLab(seated);
        given().cookie("tclab_host", host)
                .contentType(ContentType.JSON)
                .post("/api/host/events/" + lastEvent + "/learners/" + learnerId(seated) + "/reset")
                .then()
                .statusCode(200);

        assertThat(old.phase()).isEqualTo(LabPhase.STOPPED);
        assertThat(old.reason()).contains("Your host reset your lab");
        assertThat(runtime.running).doesNotContainKey(old.id());
        Lab fresh = labs.labsOf(learnerId(seated)).get(0);
        assertThat(fresh.id()).isNotEqualTo(old.id());
        assertThat(fresh.lesson()).isEqualTo(LESSON);
        for (int i = 0; i < 100 && fresh.phase() != LabPhase.RUNNING; i++) {
            Thread.sleep(20);
        }
        assertThat(fresh.phase()).isEqualTo(LabPhase.RUNNING);
        assertThat(runtime.running).containsKey(fresh.id());
        given().cookie("tclab_learner", seated)
                .get("/api/labs")
                .then()
                .statusCode(200)
                .body("findAll { it.status == 'running' }.id", hasItem(fresh.id()));
        given().cookie("tclab_host", host)
                .get("/api/host/events/" + lastEvent + "/actions")
                .then()
                .statusCode(200)
                .body("action", hasItem("reset"))
                .body("detail", hasItem(containsString(old.id() + " (" + LESSON + ") replaced by " + fresh.id())));
    }

    @Test
    void aResetWithNoLabRunningIsRefusedInPlainWords() {
        String seated = seatedLearner("");
        given().cookie("tclab_host", host)
                .contentType(ContentType.JSON)
                .post("/api/host/events/" + lastEvent + "/learners/" + learnerId(seated) + "/reset")
                .then()
                .statusCode(409)
                .body("error", containsString("Ann has no lab running"));
    }

    private static org.assertj.core.data.TemporalUnitOffset within(Duration d) {
        return new org.assertj.core.data.TemporalUnitWithinOffset(d.toSeconds(), ChronoUnit.SECONDS);
    }
}
