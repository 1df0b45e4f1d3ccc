package dev.tclab.learner;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tclab.http.SocketCloseCodes;
import dev.tclab.lab.FakeLabRuntime;
import dev.tclab.lab.FakeRuntimeProfile;
import dev.tclab.web.TestLabs;
import dev.tclab.web.TestSocket;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** One identity for pages, the API and sockets: the learner of the signed cookie, or a new learner. */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class LearnerIdentityTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @TestHTTPResource("/")
    URI base;

    @Inject
    LearnerIds learnerIds;

    @Inject
    FakeLabRuntime runtime;

    @BeforeEach
    void reset() {
        runtime.reset();
    }

    @Test
    void shouldGiveANewVisitorACookieAndRecogniseItAfterwards() {
        String issued =
                given().get("/api/labs").then().statusCode(200).extract().cookie(LearnerIds.COOKIE);
        assertNotNull(issued, "a new visitor gets a learner cookie");
        assertTrue(learnerIds.verify(issued).isPresent(), "the issued cookie is signed with the server's key");
        String again = given().cookie(LearnerIds.COOKIE, issued)
                .get("/api/labs")
                .then()
                .statusCode(200)
                .extract()
                .cookie(LearnerIds.COOKIE);
        assertNull(again, "a known learner is not given another cookie");
    }

    @Test
    void shouldSeeTheSameLearnerOnRestAndOnTheTerminalSocket() throws Exception {
        // The cookie is the one the mechanism issued on the first API call, not one made by the test.
        String cookie = given().contentType(ContentType.JSON)
                .body("{\"lesson\":\"ws-test\"}")
                .post("/api/labs")
                .then()
                .statusCode(202)
                .extract()
                .cookie(LearnerIds.COOKIE);
        String labId = given().cookie(LearnerIds.COOKIE, cookie)
                .get("/api/labs")
                .then()
                .statusCode(200)
                .extract()
                .path("[0].id");
        assertNotNull(labId, "the lab started with the issued cookie is listed for it");
        TestLabs.startAndAwait("ws-test", cookie, WAIT);
        try (TestSocket socket = TestSocket.terminal(base, labId, "client", cookie)) {
            socket.sendBinary("same learner");
            socket.awaitOutput(out -> out.contains("same learner"), WAIT);
        } finally {
            TestLabs.stop(labId, cookie);
        }
    }

    @Test
    void shouldTreatAForgedCookieAsANewLearnerEverywhere() throws Exception {
        String owner = learnerIds.newId();
        String cookie = learnerIds.sign(owner);
        String labId = TestLabs.startAndAwait("ws-test", cookie, WAIT);
        try {
            String forged = owner + ".AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
            String replaced = given().cookie(LearnerIds.COOKIE, forged)
                    .get("/api/labs/" + labId)
                    .then()
                    .statusCode(404)
                    .extract()
                    .cookie(LearnerIds.COOKIE);
            assertNotNull(replaced, "a forged cookie is replaced by a new learner's");
            assertNotEquals(owner, learnerIds.verify(replaced).orElseThrow());
            try (TestSocket socket = TestSocket.terminal(base, labId, "client", forged)) {
                assertEquals((int) SocketCloseCodes.LAB_NOT_FOUND, socket.awaitClose(WAIT));
            }
        } finally {
            TestLabs.stop(labId, cookie);
        }
    }
}
