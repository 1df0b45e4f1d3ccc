package dev.tclab.workshop;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import dev.tclab.host.HostAccount;
import dev.tclab.host.HostAccounts;
import dev.tclab.host.TestHosts;
import dev.tclab.lab.FakeRuntimeProfile;
import dev.tclab.lab.Labs;
import dev.tclab.quiz.QuizAttempt;
import dev.tclab.quiz.QuizResults;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every workshop rule over the API: who may reach host routes, whose events a host sees, and every join refusal. */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class WorkshopApiTest {

    private static final String PASSWORD = "correct horse battery";
    private static final String LESSON = "example";

    @Inject
    HostAccounts accounts;

    @Inject
    QuizResults quizzes;

    private String alice;
    private String bob;

    @BeforeEach
    void hosts() {
        alice = addHost("alice", false);
        bob = addHost("bob", false);
    }

    private String addHost(String prefix, boolean admin) {
        String name = prefix + UUID.randomUUID().toString().substring(0, 8);
        assertThat(accounts.add(new HostAccount(name, TestHosts.hash(PASSWORD), admin)))
                .isTrue();
        return given().contentType(ContentType.JSON)
                .body("{\"name\": \"" + name + "\", \"password\": \"" + PASSWORD + "\"}")
                .post("/api/host/session")
                .then()
                .statusCode(200)
                .body("name", equalTo(name))
                .extract()
                .cookie("tclab_host");
    }

    private String createEvent(String hostCookie, String extra) {
        return given().cookie("tclab_host", hostCookie)
                .contentType(ContentType.JSON)
                .body("{\"title\": \"Friday class\", \"lessons\": [\"" + LESSON + "\"]" + extra + "}")
                .post("/api/host/events")
                .then()
                .statusCode(201)
                .extract()
                .path("event.id");
    }

    private String codeOf(String hostCookie, String eventId) {
        return given().cookie("tclab_host", hostCookie)
                .get("/api/host/events/" + eventId)
                .then()
                .statusCode(200)
                .extract()
                .path("event.joinCode");
    }

    private static io.restassured.response.ValidatableResponse join(String learner, String code, String name) {
        return given().cookie("tclab_learner", learner)
                .contentType(ContentType.JSON)
                .body("{\"code\": \"" + code + "\", \"name\": \"" + name + "\"}")
                .post("/api/join")
                .then();
    }

    @Test
    void learnersAndStrangersGet403OnEveryHostRoute() {
        String event = createEvent(alice, "");
        String learner = Labs.newLearner();
        for (String path : new String[] {
            "/api/host/events",
            "/api/host/events/" + event,
            "/api/host/events/" + event + "/dashboard",
            "/api/host/events/" + event + "/export.csv",
            "/api/host/session"
        }) {
            given().cookie("tclab_learner", learner).get(path).then().statusCode(403);
            given().get(path).then().statusCode(403);
        }
        given().cookie("tclab_learner", learner)
                .contentType(ContentType.JSON)
                .body("{\"title\": \"x\", \"lessons\": [\"example\"]}")
                .post("/api/host/events")
                .then()
                .statusCode(403);
        given().cookie("tclab_learner", learner)
                .contentType(ContentType.JSON)
                .post("/api/host/events/" + event + "/close")
                .then()
                .statusCode(403);
    }

    @Test
    void aForgedOrExpiredLookingHostCookieIsNoHost() {
        String[] parts = alice.split("\\.");
        String promoted = parts[0] + ".a." + parts[2] + "." + parts[3];
        given().cookie("tclab_host", promoted).get("/api/host/events").then().statusCode(403);
        String later = parts[0] + "." + parts[1] + "." + (Long.parseLong(parts[2]) + 3600) + "." + parts[3];
        given().cookie("tclab_host", later).get("/api/host/events").then().statusCode(403);
    }

    @Test
    void aWrongPasswordOrUnknownHostIsRefusedAlike() {
        given().contentType(ContentType.JSON)
                .body("{\"name\": \"nobody-here\", \"password\": \"whatever-it-is\"}")
                .post("/api/host/session")
                .then()
                .statusCode(401)
                .body("error", containsString("do not match"));
        String name = given().cookie("tclab_host", alice)
                .get("/api/host/session")
                .then()
                .statusCode(200)
                .extract()
                .path("name");
        given().contentType(ContentType.JSON)
                .body("{\"name\": \"" + name + "\", \"password\": \"wrong password!\"}")
                .post("/api/host/session")
                .then()
                .statusCode(401)
                .body("error", containsString("do not match"));
    }

    @Test
    void signOutClearsTheCookie() {
        String cleared = given().cookie("tclab_host", alice)
                .delete("/api/host/session")
                .then()
                .statusCode(204)
                .extract()
                .detailedCookie("tclab_host")
                .getValue();
        assertThat(cleared).isEmpty();
    }

    @Test
    void aHostSeesOnlyTheirOwnEventsAndGets404OnAnothers() {
        String event = createEvent(alice, "");
        given().cookie("tclab_host", alice)
                .get("/api/host/events")
                .then()
                .statusCode(200)
                .body("event.id", hasItem(event));
        given().cookie("tclab_host", bob)
                .get("/api/host/events")
                .then()
                .statusCode(200)
                .body("event.id", org.hamcrest.Matchers.not(hasItem(event)));
        for (String path : new String[] {"", "/dashboard", "/export.csv", "/export.json", "/qr.svg", "/actions"}) {
            given().cookie("tclab_host", bob)
                    .get("/api/host/events/" + event + path)
                    .then()
                    .statusCode(404);
        }
        given().cookie("tclab_host", bob)
                .contentType(ContentType.JSON)
                .post("/api/host/events/" + event + "/close")
                .then()
                .statusCode(404);
        given().cookie("tclab_host", bob)
                .contentType(ContentType.JSON)
                .body("{\"text\": \"hi\"}")
                .post("/api/host/events/" + event + "/messages")
                .then()
                .statusCode(404);

        String admin = addHost("root", true);
        given().cookie("tclab_host", admin)
                .get("/api/host/events/" + event + "/dashboard")
                .then()
                .statusCode(200);
    }

    @Test
    void anEventNeedsATitleAndKnownLessons() {
        given().cookie("tclab_host", alice)
                .contentType(ContentType.JSON)
                .body("{\"title\": \"\", \"lessons\": [\"no-such-lesson\"], \"seatCap\": 0}")
                .post("/api/host/events")
                .then()
                .statusCode(400)
                .body("error", containsString("title"))
                .body("error", containsString("no-such-lesson"))
                .body("error", containsString("seat cap"));
    }

    @Test
    void aHostChangesAWorkshopAndEveryChangeIsLogged() {
        String event = createEvent(alice, ", \"seatCap\": 1");
        String code = codeOf(alice, event);
        join(Labs.newLearner(), code, "Ann").statusCode(200);
        join(Labs.newLearner(), code, "Bea")
                .statusCode(409)
                .body("error", containsString("Ask your host to raise the seat cap"));

        String closes = Instant.now()
                .plusSeconds(3600)
                .truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                .toString();
        given().cookie("tclab_host", alice)
                .contentType(ContentType.JSON)
                .body("{\"title\": \"Friday class, part 2\", \"lessons\": [\"tbf-basics\", \"" + LESSON + "\"],"
                        + " \"seatCap\": 3, \"closesAt\": \"" + closes + "\", \"lifetimeMinutes\": 60}")
                .put("/api/host/events/" + event)
                .then()
                .statusCode(200)
                .body("event.title", equalTo("Friday class, part 2"))
                .body("event.lessons", equalTo(List.of("tbf-basics", LESSON)))
                .body("event.seatCap", equalTo(3))
                .body("event.closesAt", equalTo(closes))
                .body("event.joinCode", equalTo(code));
        join(Labs.newLearner(), code, "Bea").statusCode(200);
        given().cookie("tclab_host", alice)
                .get("/api/host/events/" + event + "/actions")
                .then()
                .statusCode(200)
                .body("[0].action", equalTo("edit"))
                .body("[0].detail", containsString("title: Friday class \u2192 Friday class, part 2"))
                .body("[0].detail", containsString("lessons: example \u2192 tbf-basics, example"))
                .body("[0].detail", containsString("seat cap: 1 \u2192 3"))
                .body("[0].detail", containsString("lab lifetime (min): 240 \u2192 60"));

        given().cookie("tclab_host", alice)
                .contentType(ContentType.JSON)
                .body("{\"title\": \"Friday class\", \"lessons\": [\"" + LESSON + "\"], \"seatCap\": 1}")
                .put("/api/host/events/" + event)
                .then()
                .statusCode(400)
                .body("error", equalTo("2 learners have joined already, so the seat cap must be at least 2."));
        given().cookie("tclab_host", bob)
                .contentType(ContentType.JSON)
                .body("{\"title\": \"Mine now\", \"lessons\": [\"" + LESSON + "\"]}")
                .put("/api/host/events/" + event)
                .then()
                .statusCode(404);

        given().cookie("tclab_host", alice)
                .contentType(ContentType.JSON)
                .post("/api/host/events/" + event + "/close")
                .then()
                .statusCode(200)
                .body("status", equalTo("closed"));
        join(Labs.newLearner(), code, "Cem").statusCode(410);
        given().cookie("tclab_host", alice)
                .contentType(ContentType.JSON)
                .post("/api/host/events/" + event + "/reopen")
                .then()
                .statusCode(200)
                .body("status", equalTo("open"));
        join(Labs.newLearner(), code, "Cem").statusCode(200);
        given().cookie("tclab_host", alice)
                .get("/api/host/events/" + event + "/actions")
                .then()
                .body("[0].action", equalTo("reopen"));
    }

    @Test
    void theJoinCodeHasNoAmbiguousCharactersAndTheQrCodeIsSvg() {
        String event = createEvent(alice, "");
        String code = codeOf(alice, event);
        assertThat(code).hasSize(6).doesNotContain("0", "O", "1", "I", "L");
        given().cookie("tclab_host", alice)
                .get("/api/host/events/" + event + "/qr.svg")
                .then()
                .statusCode(200)
                .contentType(containsString("image/svg+xml"))
                .body(containsString("<svg"));
    }

    @Test
    void joinRefusalsSayWhatIsWrong() {
        String learner = Labs.newLearner();
        join(learner, "ZZZZZZ", "Ann").statusCode(404).body("error", containsString("No workshop has the code ZZZZZZ"));

        String later = createEvent(alice, ", \"opensAt\": \"" + Instant.now().plusSeconds(3600) + "\"");
        join(learner, codeOf(alice, later), "Ann").statusCode(409).body("error", containsString("opens at"));

        String small = createEvent(alice, ", \"seatCap\": 1");
        String code = codeOf(alice, small);
        join(learner, code.toLowerCase(), "Ann")
                .statusCode(200)
                .body("title", equalTo("Friday class"))
                .body("displayName", equalTo("Ann"));
        join(learner, code, "Ann").statusCode(200);
        String second = Labs.newLearner();
        join(second, code, "ann").statusCode(409).body("error", containsString("already uses the name"));
        join(second, code, "Bea").statusCode(409).body("error", containsString("is full"));

        given().cookie("tclab_host", alice)
                .contentType(ContentType.JSON)
                .post("/api/host/events/" + small + "/close")
                .then()
                .statusCode(200)
                .body("status", equalTo("closed"));
        join(second, code, "Bea").statusCode(410).body("error", containsString("is closed"));
        join(second, code, " ").statusCode(410);
    }

    @Test
    void aJoinedLearnerSeesTheEventAndTheHostsBroadcasts() {
        String learner = Labs.newLearner();
        given().cookie("tclab_learner", learner)
                .get("/api/workshop/mine")
                .then()
                .statusCode(204);
        String event = createEvent(alice, ", \"closesAt\": \"" + Instant.now().plusSeconds(7200) + "\"");
        join(learner, codeOf(alice, event), "Ann").statusCode(200);
        given().cookie("tclab_host", alice)
                .contentType(ContentType.JSON)
                .body("{\"text\": \"Break until 11:00\"}")
                .post("/api/host/events/" + event + "/messages")
                .then()
                .statusCode(204);
        given().cookie("tclab_learner", learner)
                .get("/api/workshop/mine")
                .then()
                .statusCode(200)
                .body("title", equalTo("Friday class"))
                .body("displayName", equalTo("Ann"))
                .body("messages.text", hasItem("Break until 11:00"))
                .body("endsAt", org.hamcrest.Matchers.notNullValue());
    }

    @Test
    void aMessageToOneLearnerStaysOnTheirPagesUntilTheyMarkItRead() {
        String ann = Labs.newLearner();
        String bea = Labs.newLearner();
        given().cookie("tclab_learner", ann)
                .contentType(ContentType.JSON)
                .post("/api/workshop/mine/messages/1/read")
                .then()
                .statusCode(404)
                .body("error", containsString("You are in no workshop"));
        String event = createEvent(alice, "");
        String code = codeOf(alice, event);
        join(ann, code, "Ann").statusCode(200);
        join(bea, code, "Bea").statusCode(200);
        String annId = ann.substring(0, ann.lastIndexOf('.'));
        given().cookie("tclab_host", alice)
                .contentType(ContentType.JSON)
                .body("{\"text\": \" Look at the modem \"}")
                .post("/api/host/events/" + event + "/learners/" + annId + "/message")
                .then()
                .statusCode(204);
        given().cookie("tclab_host", alice)
                .contentType(ContentType.JSON)
                .body("{\"text\": \"\"}")
                .post("/api/host/events/" + event + "/learners/" + annId + "/message")
                .then()
                .statusCode(400);

        // Asked again (a reload), the message is still there; Bea never sees it.
        for (int read = 0; read < 2; read++) {
            given().cookie("tclab_learner", ann)
                    .get("/api/workshop/mine")
                    .then()
                    .statusCode(200)
                    .body("personal.text", equalTo(List.of("Look at the modem")));
        }
        given().cookie("tclab_learner", bea)
                .get("/api/workshop/mine")
                .then()
                .statusCode(200)
                .body("personal", org.hamcrest.Matchers.empty());
        int id = given().cookie("tclab_learner", ann)
                .get("/api/workshop/mine")
                .then()
                .extract()
                .path("personal[0].id");
        given().cookie("tclab_learner", bea)
                .contentType(ContentType.JSON)
                .post("/api/workshop/mine/messages/" + id + "/read")
                .then()
                .statusCode(404);
        given().cookie("tclab_learner", ann)
                .contentType(ContentType.JSON)
                .post("/api/workshop/mine/messages/" + id + "/read")
                .then()
                .statusCode(204);
        given().cookie("tclab_learner", ann)
                .get("/api/workshop/mine")
                .then()
                .statusCode(200)
                .body("personal", org.hamcrest.Matchers.empty());
        given().cookie("tclab_learner", ann)
                .contentType(ContentType.JSON)
                .post("/api/workshop/mine/messages/" + id + "/read")
                .then()
                .statusCode(404)
                .body("error", containsString("marked read already"));
        given().cookie("tclab_host", alice)
                .get("/api/host/events/" + event + "/actions")
                .then()
                .statusCode(200)
                .body("detail", hasItem("to Ann: Look at the modem"));
    }

    @Test
    void theDashboardAndExportListEveryLearner() {
        String event = createEvent(alice, "");
        String code = codeOf(alice, event);
        String ann = Labs.newLearner();
        String bea = Labs.newLearner();
        join(ann, code, "Ann").statusCode(200);
        join(bea, code, "Bea, \\\"B\\\"").statusCode(200);
        quizzes.record(
                ann.substring(0, ann.lastIndexOf('.')), LESSON, new QuizAttempt("intro-hidden-node", List.of(0), true));
        given().cookie("tclab_host", alice)
                .get("/api/host/events/" + event + "/dashboard")
                .then()
                .statusCode(200)
                .body("learners.name", org.hamcrest.Matchers.containsInAnyOrder("Ann", "Bea, \"B\""))
                .body("learners.find { it.name == 'Ann' }.quizzesRight", equalTo(1))
                .body("learners.find { it.name == 'Ann' }.quizzesTotal", equalTo(2))
                .body("learners[0].labStatus", equalTo("none"));
        String csv = given().cookie("tclab_host", alice)
                .get("/api/host/events/" + event + "/export.csv")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(csv)
                .startsWith("name,learner_id,lesson,kind,item,passed,passed_at,attempts")
                .containsPattern("Ann,l[0-9a-f]+,example,quiz,intro-hidden-node,true,20[0-9-]+T[^,]+,1\r\n")
                .contains("\"Bea, \"\"B\"\"\"");
        given().cookie("tclab_host", alice)
                .get("/api/host/events/" + event + "/export.json")
                .then()
                .statusCode(200)
                .body("name", hasItem("Ann"));
    }
}
