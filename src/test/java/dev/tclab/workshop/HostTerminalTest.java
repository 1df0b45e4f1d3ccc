package dev.tclab.workshop;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.hasItem;

import dev.tclab.host.HostAccount;
import dev.tclab.host.HostAccounts;
import dev.tclab.host.TestHosts;
import dev.tclab.http.SocketCloseCodes;
import dev.tclab.lab.FakeLabRuntime;
import dev.tclab.lab.FakeRuntimeProfile;
import dev.tclab.lab.LabService;
import dev.tclab.lab.Labs;
import dev.tclab.web.TestSocket;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A host shadows a learner's terminal (sees what they type), is refused typing while read-only, then takes over
 * (the shell gets the host's keys, the learner sees a notice); learners and other hosts cannot open the socket.
 * The same lab is then extended and stopped from the dashboard API, each recorded.
 * The fake runtime's shell echoes its input, so what reaches the shell shows on every screen attached to it.
 */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class HostTerminalTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @TestHTTPResource("/")
    URI base;

    @Inject
    HostAccounts accounts;

    @Inject
    LabService labs;

    @Inject
    FakeLabRuntime runtime;

    @AfterEach
    void clean() throws Exception {
        Labs.clean(labs, runtime);
    }

    private String host(String prefix) {
        String name = prefix + UUID.randomUUID().toString().substring(0, 8);
        accounts.add(new HostAccount(name, TestHosts.hash("host password 1"), false));
        return given().contentType(ContentType.JSON)
                .body("{\"name\": \"" + name + "\", \"password\": \"host password 1\"}")
                .post("/api/host/session")
                .then()
                .statusCode(200)
                .extract()
                .cookie("tclab_host");
    }

    @Test
    void aHostShadowsThenTakesOverALearnersTerminal() throws Exception {
        String host = host("alice");
        String event = given().cookie("tclab_host", host)
                .contentType(ContentType.JSON)
                .body("{\"title\": \"Shadowing\", \"lessons\": [\"example\"]}")
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
        String learnerId = learner.substring(0, learner.lastIndexOf('.'));
        given().cookie("tclab_learner", learner)
                .contentType(ContentType.JSON)
                .body("{\"code\": \"" + code + "\", \"name\": \"Ann\"}")
                .post("/api/join")
                .then()
                .statusCode(200);
        String lab = given().cookie("tclab_learner", learner)
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
                                .equals(given().cookie("tclab_learner", learner)
                                        .get("/api/labs/" + lab)
                                        .then()
                                        .extract()
                                        .path("status"));
                i++) {
            Thread.sleep(100);
        }
        String origin = TestSocket.originOf(base);
        String hostPath =
                "/api/host/events/" + event + "/learners/" + learnerId + "/labs/" + lab + "/nodes/client/terminal";

        try (TestSocket mine = TestSocket.open(base, "/ws/labs/" + lab + "/nodes/client/terminal", learner, origin);
                TestSocket shadow = TestSocket.openWithCookies(base, hostPath, "tclab_host=" + host, origin)) {
            mine.nextShellFrame(WAIT);
            shadow.nextShellFrame(WAIT);
            // As the dashboard does: its view acknowledges what it drew, so a learner's flood is paced for it too.
            shadow.sendText("{\"type\":\"ack\",\"bytes\":0}");
            mine.sendBinary("echo learner-typed\n");
            shadow.awaitOutput(o -> o.contains("echo learner-typed"), WAIT);

            shadow.sendBinary("host-tries-to-type\n");
            assertThat(shadow.nextText(WAIT)).contains("read-only");
            shadow.sendText("{\"type\":\"paste\"}");
            assertThat(shadow.nextText(WAIT)).contains("Unknown control message type 'paste'");
            Thread.sleep(300);
            assertThat(mine.output()).doesNotContain("host-tries-to-type");

            try (TestSocket control =
                    TestSocket.openWithCookies(base, hostPath + "?mode=control", "tclab_host=" + host, origin)) {
                control.nextShellFrame(WAIT);
                control.sendBinary("echo host-typed\n");
                String seen = mine.awaitOutput(o -> o.contains("echo host-typed"), WAIT);
                assertThat(seen).contains("your host alice").contains("is typing in this terminal");
                shadow.awaitOutput(o -> o.contains("echo host-typed"), WAIT);
            }
        }
        given().cookie("tclab_host", host)
                .contentType(ContentType.JSON)
                .post("/api/host/events/" + event + "/learners/" + learnerId + "/extend")
                .then()
                .statusCode(200);
        given().cookie("tclab_host", host)
                .get("/api/host/events/" + event + "/actions")
                .then()
                .statusCode(200)
                .body("action", hasItem("shadow terminal"))
                .body("action", hasItem("take over terminal"))
                .body("action", hasItem("extend"));
        given().cookie("tclab_host", host)
                .contentType(ContentType.JSON)
                .post("/api/host/events/" + event + "/learners/" + learnerId + "/stop")
                .then()
                .statusCode(200)
                .body("learners[0].labStatus", org.hamcrest.Matchers.equalTo("stopped"));
        given().cookie("tclab_host", host)
                .contentType(ContentType.JSON)
                .post("/api/host/events/" + event + "/learners/" + learnerId + "/extend")
                .then()
                .statusCode(409)
                .body("error", org.hamcrest.Matchers.containsString("Ann has no lab running"));

        // A learner (even the owner) and another host are refused.
        try (TestSocket asLearner = TestSocket.open(base, hostPath, learner, origin)) {
            assertThat(asLearner.awaitClose(WAIT)).isEqualTo(SocketCloseCodes.LAB_NOT_FOUND);
        } catch (java.util.concurrent.ExecutionException refusedAtHandshake) {
            assertThat(refusedAtHandshake).hasMessageContaining("403");
        }
        try (TestSocket asOtherHost = TestSocket.openWithCookies(base, hostPath, "tclab_host=" + host("bob"), origin)) {
            assertThat(asOtherHost.awaitClose(WAIT)).isEqualTo(SocketCloseCodes.LAB_NOT_FOUND);
        }
    }
}
