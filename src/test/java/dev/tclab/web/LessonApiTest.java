package dev.tclab.web;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.tclab.lab.FakeRuntimeProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.filter.cookie.CookieFilter;
import io.restassured.http.ContentType;
import java.util.List;
import org.junit.jupiter.api.Test;

@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class LessonApiTest {

    @Test
    void shouldListWorkingAndBrokenLessons() {
        given().when()
                .get("/api/lessons")
                .then()
                .statusCode(200)
                .body("slug", hasItem("web-test"))
                .body("find { it.slug == 'web-test' }.broken", equalTo(false))
                .body("find { it.slug == 'web-test' }.requires", hasItem("qdisc:tbf"))
                .body("find { it.slug == 'web-test' }.progress.quizzesTotal", equalTo(2))
                .body("find { it.slug == 'broken-demo' }.broken", equalTo(true))
                .body(
                        "find { it.slug == 'broken-demo' }.problems",
                        hasItem(containsString("broken-demo/steps/01-only.md:4: lab.yml has no node 'server'")))
                .body("find { it.slug == 'web-test' }.warnings", equalTo(List.of()))
                .body(
                        "find { it.slug == 'broken-demo' }.warnings",
                        hasItem(startsWith("lessons/broken-demo/steps/01-only.md:11: warning: iperf3 'up' runs on node"
                                + " client against 10.0.0.1, which lab.yml gives to client itself")));
    }

    @Test
    void shouldGiveEachLessonItsTrackAndPlaceAndListTheTracks() {
        given().when()
                .get("/api/lessons")
                .then()
                .statusCode(200)
                .body("find { it.slug == 'tbf-basics' }.track", equalTo("foundations"))
                .body("find { it.slug == 'tbf-basics' }.place", equalTo(1))
                .body("find { it.slug == 'htb-rate-accuracy' }.track", equalTo("foundations"))
                .body("find { it.slug == 'htb-rate-accuracy' }.place", equalTo(2))
                .body("find { it.slug == 'bufferbloat-download' }.track", equalTo("real-networks"))
                .body("find { it.slug == 'bufferbloat-download' }.place", equalTo(2))
                .body("find { it.slug == 'web-test' }.track", equalTo(null))
                .body("find { it.slug == 'web-test' }.place", equalTo(null));
        given().when()
                .get("/api/lessons/htb-rate-accuracy")
                .then()
                .statusCode(200)
                .body("lesson.track", equalTo("foundations"))
                .body("lesson.place", equalTo(2));
        given().when()
                .get("/api/tracks")
                .then()
                .statusCode(200)
                .body(
                        "tracks.id",
                        equalTo(List.of("foundations", "queues-and-aqm", "classes-and-policing", "real-networks")))
                .body("tracks[0].title", equalTo("Foundations"))
                .body("tracks[0].summary", not(equalTo("")))
                .body("tracks[0].lessons", equalTo(List.of("tbf-basics", "htb-rate-accuracy", "netem-tcp")))
                .body("tracks[1].lessons", equalTo(List.of("buffers", "fq-codel", "fair-queueing", "cake-in-depth")))
                .body("tracks[2].lessons", equalTo(List.of("prio-dscp", "classification", "policing")))
                .body(
                        "tracks[3].lessons",
                        equalTo(List.of(
                                "bufferbloat-upload", "bufferbloat-download", "troubleshooting", "home-router-qos")))
                .body("problems", equalTo(List.of()));
    }

    @Test
    void shouldDescribeStepsAndQuizzesWithoutAnswers() {
        String body = given().when()
                .get("/api/lessons/web-test")
                .then()
                .statusCode(200)
                .body("lesson.title", equalTo("Token bucket drill"))
                .body("nodes", equalTo(List.of("client", "server")))
                .body("steps.id", equalTo(List.of("baseline", "shape")))
                .body("steps[1].checks[0].id", equalTo("shaped-to-rate"))
                .body("steps[1].quizzes[0].id", equalTo("burst-unit"))
                .body("steps[1].quizzes[0].options", hasSize(3))
                .extract()
                .asString();
        assertFalse(body.contains("correct"), body);
        assertFalse(body.contains("why"), body);
        assertFalse(body.contains("kilobytes; tc"), body);
    }

    @Test
    void shouldGradeAWrongAnswerExplainingOnlyTheChosenOption() {
        CookieFilter learner = new CookieFilter();
        int kilobits = QuizPositions.of(learner, "web-test", "burst-unit", "32 kilobits");
        given().filter(learner)
                .contentType(ContentType.JSON)
                .body("{\"choices\":[" + kilobits + "]}")
                .when()
                .post("/api/lessons/web-test/quizzes/burst-unit")
                .then()
                .statusCode(200)
                .body("correct", equalTo(false))
                .body("explanations", hasSize(1))
                .body("explanations[0].option", equalTo(kilobits))
                .body("explanations[0].correct", equalTo(false))
                .body("explanations[0].why", containsString("32kbit"))
                .body(
                        "explanations[0].whyHtml",
                        equalTo("Kilobits would be written <code>32kbit</code>, a bucket eight times smaller."));
    }

    @Test
    void shouldEscapeRawHtmlInTheExplanationHtml() {
        CookieFilter learner = new CookieFilter();
        int yes = QuizPositions.of(learner, "escaping", "probe", "Yes <script>alert('option')</script>");
        given().filter(learner)
                .contentType(ContentType.JSON)
                .body("{\"choices\":[" + yes + "]}")
                .when()
                .post("/api/lessons/escaping/quizzes/probe")
                .then()
                .statusCode(200)
                // A right answer explains every option in this learner's order, so look the chosen one up.
                .body(
                        "explanations.find { it.option == " + yes + " }.whyHtml",
                        equalTo("Because &lt;script&gt;alert('why')&lt;/script&gt; is text."));
    }

    @Test
    void shouldGradeARightAnswerExplainingEveryOptionAndCountProgress() {
        CookieFilter learner = new CookieFilter();
        int kilobytes = QuizPositions.of(learner, "web-test", "burst-unit", "32 kilobytes");
        given().filter(learner)
                .contentType(ContentType.JSON)
                .body("{\"choices\":[" + kilobytes + "]}")
                .when()
                .post("/api/lessons/web-test/quizzes/burst-unit")
                .then()
                .statusCode(200)
                .body("correct", equalTo(true))
                .body("explanations.option", equalTo(List.of(0, 1, 2)))
                .body("explanations.why", everyItem(not(equalTo(""))));
        given().filter(learner)
                .when()
                .get("/api/lessons")
                .then()
                .body("find { it.slug == 'web-test' }.progress.quizzesCorrect", equalTo(1));
    }

    @Test
    void shouldAnswer404ForUnknownLessonOrQuiz() {
        given().contentType(ContentType.JSON)
                .body("{\"choices\":[0]}")
                .when()
                .post("/api/lessons/no-such-lesson/quizzes/burst-unit")
                .then()
                .statusCode(404)
                .body("error", containsString("no-such-lesson"));
        given().contentType(ContentType.JSON)
                .body("{\"choices\":[0]}")
                .when()
                .post("/api/lessons/web-test/quizzes/nope")
                .then()
                .statusCode(404)
                .body("error", containsString("no quiz 'nope'"));
        given().when().get("/api/lessons/no-such-lesson").then().statusCode(404);
    }

    @Test
    void shouldRejectMalformedAnswersWithAClearMessage() {
        given().contentType(ContentType.JSON)
                .body("{not json")
                .when()
                .post("/api/lessons/web-test/quizzes/burst-unit")
                .then()
                .statusCode(400)
                .body("error", containsString("not valid JSON"));
        given().contentType(ContentType.JSON)
                .body("{\"answer\":1}")
                .when()
                .post("/api/lessons/web-test/quizzes/burst-unit")
                .then()
                .statusCode(400)
                .body("error", containsString("\"choices\""));
        given().contentType(ContentType.JSON)
                .body("{\"choices\":[7]}")
                .when()
                .post("/api/lessons/web-test/quizzes/burst-unit")
                .then()
                .statusCode(400)
                .body("error", containsString("Option 7 does not exist"));
        given().contentType(ContentType.JSON)
                .body("{\"choices\":[0,1]}")
                .when()
                .post("/api/lessons/web-test/quizzes/burst-unit")
                .then()
                .statusCode(400)
                .body("error", containsString("exactly one"));
        given().contentType(ContentType.JSON)
                .body("{\"choices\":[\"a\"]}")
                .when()
                .post("/api/lessons/web-test/quizzes/burst-unit")
                .then()
                .statusCode(400)
                .body("error", containsString("option indexes"));
    }

    @Test
    void shouldRefuseQuizzesOfABrokenLesson() {
        given().contentType(ContentType.JSON)
                .body("{\"choices\":[0]}")
                .when()
                .post("/api/lessons/broken-demo/quizzes/any")
                .then()
                .statusCode(409)
                .body("problems", hasItem(containsString("{{undeclared}}")));
    }

    @Test
    void shouldStartTheLabFromTheLessonsLabYml() {
        given().contentType(ContentType.JSON)
                .body("{\"lesson\":\"web-test\"}")
                .when()
                .post("/api/labs")
                .then()
                .statusCode(202)
                .body("lesson", equalTo("web-test"));
        given().contentType(ContentType.JSON)
                .body("{\"lesson\":\"no-such-lesson\"}")
                .when()
                .post("/api/labs")
                .then()
                .statusCode(404);
    }
}
