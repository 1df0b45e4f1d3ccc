package dev.tclab.web;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tclab.lab.FakeLabRuntime;
import dev.tclab.lab.FakeRuntimeProfile;
import dev.tclab.lab.LabService;
import dev.tclab.lab.Labs;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.net.URL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The web edge: state changes need JSON and no foreign Origin (issue 10, row 10), and every response carries the
 * security headers. API clients without an Origin and the no-JavaScript quiz form keep working.
 */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class WebEdgeTest {

    private static final String START = "{\"lesson\": \"example\"}";
    private static final String FOREIGN = "http://evil.example";

    @TestHTTPResource("/")
    URL root;

    @Inject
    FakeLabRuntime runtime;

    @Inject
    LabService labs;

    @AfterEach
    void clean() throws Exception {
        Labs.clean(labs, runtime);
    }

    private String ownOrigin() {
        return "http://" + root.getHost() + ":" + root.getPort();
    }

    @Test
    void shouldRefuseATextPlainLabStartAsAForeignPageSendsIt() {
        // Row 10: a page on another site posted text/plain to /api/labs, which needs no preflight, and a lab started.
        int before = labs.liveCount();
        given().header("Origin", FOREIGN)
                .contentType("text/plain")
                .body(START)
                .post("/api/labs")
                .then()
                .statusCode(403)
                .body("error", containsString("another site"));
        given().contentType("text/plain")
                .body(START)
                .post("/api/labs")
                .then()
                .statusCode(415)
                .body("error", containsString("Content-Type: application/json"));
        given().header("Origin", FOREIGN)
                .contentType(ContentType.JSON)
                .body(START)
                .post("/api/labs")
                .then()
                .statusCode(403);
        assertEquals(before, labs.liveCount(), "no lab started");
    }

    @Test
    void shouldRefuseAnOriginWithUserinfoNamingThisHost() {
        given().header("Origin", "http://evil.com@" + root.getHost() + ":" + root.getPort())
                .contentType(ContentType.JSON)
                .body(START)
                .post("/api/labs")
                .then()
                .statusCode(403);
        given().header("Origin", "null")
                .contentType(ContentType.JSON)
                .body(START)
                .post("/api/labs")
                .then()
                .statusCode(403);
    }

    @Test
    void shouldAcceptJsonFromTheOwnOriginAndFromClientsWithoutOrigin() {
        String learner = Labs.newLearner();
        String id = given().cookie("tclab_learner", learner)
                .header("Origin", ownOrigin())
                .contentType("application/json; charset=utf-8")
                .body(START)
                .post("/api/labs")
                .then()
                .statusCode(202)
                .extract()
                .path("id");
        given().cookie("tclab_learner", learner)
                .header("Origin", FOREIGN)
                .delete("/api/labs/" + id)
                .then()
                .statusCode(403);
        // DELETE needs no type: a browser never sends it cross-site without a preflight.
        given().cookie("tclab_learner", learner)
                .header("Origin", ownOrigin())
                .delete("/api/labs/" + id)
                .then()
                .statusCode(204);
        String other = Labs.newLearner();
        String second = given().cookie("tclab_learner", other)
                .contentType(ContentType.JSON)
                .body(START)
                .post("/api/labs")
                .then()
                .statusCode(202)
                .extract()
                .path("id");
        given().cookie("tclab_learner", other)
                .delete("/api/labs/" + second)
                .then()
                .statusCode(204);
    }

    @Test
    void shouldRefuseOtherTypesOnEveryStateChangingRoute() {
        given().contentType(ContentType.URLENC)
                .formParam("choice", "1")
                .post("/api/lessons/web-test/quizzes/burst-unit")
                .then()
                .statusCode(415);
        given().contentType("text/plain")
                .body("{\"choices\":[1]}")
                .post("/api/lessons/web-test/quizzes/burst-unit")
                .then()
                .statusCode(415);
        given().post("/api/labs/any/steps/shape/check").then().statusCode(415);
        given().contentType("text/plain")
                .post("/api/lessons/web-test/selftest")
                .then()
                .statusCode(415);
        given().contentType(ContentType.URLENC)
                .formParam("lesson", "example")
                .post("/api/labs")
                .then()
                .statusCode(415);
    }

    @Test
    void shouldKeepTheNoJavaScriptQuizFormWorkingFromTheOwnPage() {
        given().redirects()
                .follow(false)
                .header("Origin", ownOrigin())
                .contentType(ContentType.URLENC)
                .formParam("choice", "1")
                .post("/lessons/web-test/quizzes/burst-unit")
                .then()
                .statusCode(303);
        given().redirects()
                .follow(false)
                .contentType(ContentType.URLENC)
                .formParam("choice", "1")
                .post("/lessons/web-test/quizzes/burst-unit")
                .then()
                .statusCode(303);
        given().redirects()
                .follow(false)
                .header("Origin", FOREIGN)
                .contentType(ContentType.URLENC)
                .formParam("choice", "1")
                .post("/lessons/web-test/quizzes/burst-unit")
                .then()
                .statusCode(403);
        given().redirects()
                .follow(false)
                .contentType("text/plain")
                .body("choice=1")
                .post("/lessons/web-test/quizzes/burst-unit")
                .then()
                .statusCode(415);
    }

    @Test
    void shouldAnswerNoCorsPreflight() {
        Response preflight = given().header("Origin", FOREIGN)
                .header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "content-type")
                .options("/api/labs");
        assertEquals(null, preflight.getHeader("Access-Control-Allow-Origin"), "no CORS grant");
        assertEquals(null, preflight.getHeader("Access-Control-Allow-Headers"), "no CORS grant");
    }

    @Test
    void shouldSendTheSecurityHeadersOnPagesApiAnswersAssetsAndRefusals() {
        for (Response response : new Response[] {
            given().get("/lessons/web-test"),
            given().get("/api/labs"),
            given().get("/js/checks.js"),
            given().get("/css/tclab.css"),
            given().contentType("text/plain").post("/api/labs")
        }) {
            response.then()
                    .header("Content-Security-Policy", containsString("script-src 'self';"))
                    .header("Content-Security-Policy", containsString("frame-ancestors 'none'"))
                    .header("Content-Security-Policy", containsString("object-src 'none'"))
                    .header("X-Content-Type-Options", equalTo("nosniff"))
                    .header("Referrer-Policy", equalTo("same-origin"));
        }
        given().get("/api/labs")
                .then()
                .header("Access-Control-Allow-Origin", nullValue())
                .body("$", empty());
    }
}
