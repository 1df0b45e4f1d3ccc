package dev.tclab.web;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tclab.http.Quote;
import dev.tclab.lab.FakeRuntimeProfile;
import dev.tclab.lab.Labs;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

/**
 * Issue 25, row 7: a 10 MB lesson slug was read whole and its 404 echoed all 10,000,048 bytes. Now a body above the
 * cap is refused with a JSON 413 before it is read, and every refusal quotes at most 200 characters of its input.
 */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class RequestLimitsTest {

    /** A sentence quoting 200 characters of input, with room to spare, but far below the input's size. */
    private static final int BOUNDED_BODY = 1000;

    @Test
    void shouldRefuseTheTenMegabyteSlugWithA413ThatSaysTheLimit() {
        String body = "{\"lesson\": \"" + "a".repeat(10_000_000) + "\"}";
        Response response = given().contentType(ContentType.JSON).body(body).post("/api/labs");
        assertEquals(413, response.statusCode());
        assertTrue(response.asString().contains("64 KiB"), response.asString());
        assertTrue(
                response.asString().length() < BOUNDED_BODY,
                "413 body: " + response.asString().length());
    }

    @Test
    void shouldQuoteAtMost200CharactersOfALongSlugInA404() {
        String slug = "b".repeat(60_000);
        Response response = given().contentType(ContentType.JSON)
                .body("{\"lesson\": \"" + slug + "\"}")
                .post("/api/labs");
        assertEquals(404, response.statusCode());
        assertBounded(response, slug);
        assertBounded(
                given().get("/api/lessons/" + "c".repeat(3000))
                        .then()
                        .statusCode(404)
                        .extract()
                        .response(),
                "c".repeat(3000));
    }

    @Test
    void shouldQuoteAtMost200CharactersOfLongIdsInEveryApiRefusal() {
        String learner = Labs.newLearner();
        String id = "d".repeat(3000);
        // A lab's refusal names no lab id at all (an id means nothing to a learner), so nothing of it comes back.
        String labRefusal = given().cookie("tclab_learner", learner)
                .get("/api/labs/" + id)
                .then()
                .statusCode(404)
                .extract()
                .asString();
        assertTrue(labRefusal.length() < BOUNDED_BODY && !labRefusal.contains("ddd"), labRefusal);
        assertBounded(
                given().cookie("tclab_learner", learner)
                        .contentType(ContentType.JSON)
                        .body("{\"choices\": [0]}")
                        .post("/api/lessons/example/quizzes/" + id)
                        .then()
                        .statusCode(404)
                        .extract()
                        .response(),
                id);
        String choice = "e".repeat(50_000);
        assertBounded(
                given().cookie("tclab_learner", learner)
                        .contentType(ContentType.JSON)
                        .body("{\"choices\": [\"" + choice + "\"]}")
                        .post("/api/lessons/example/quizzes/q1")
                        .then()
                        .statusCode(400)
                        .extract()
                        .response(),
                choice);
    }

    @Test
    void shouldSayHowLongTheCutInputWas() {
        assertEquals("'" + "f".repeat(200) + "…' (201 characters, cut)", Quote.of("f".repeat(201)));
        assertEquals("'short'", Quote.of("short"));
    }

    private static void assertBounded(Response response, String input) {
        String body = response.asString();
        assertTrue(
                body.length() < BOUNDED_BODY,
                "body of " + body.length() + " characters: " + body.substring(0, Math.min(300, body.length())));
        assertTrue(body.contains(input.substring(0, 150)), "the input's start is quoted: " + body);
        assertTrue(body.contains(" characters, cut)"), body);
    }
}
