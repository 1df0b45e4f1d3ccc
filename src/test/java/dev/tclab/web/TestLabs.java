package dev.tclab.web;

import static io.restassured.RestAssured.given;

import dev.tclab.learner.LearnerIds;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.time.Duration;

/** Starts labs through the public API, as a page would, for socket tests. */
public final class TestLabs {

    private TestLabs() {}

    /** Starts the lesson's lab for the learner behind {@code cookie} and waits until it runs; returns its id. */
    public static String startAndAwait(String lesson, String cookie, Duration timeout) throws InterruptedException {
        String id = given().cookie(LearnerIds.COOKIE, cookie)
                .contentType(ContentType.JSON)
                .body("{\"lesson\":\"" + lesson + "\"}")
                .post("/api/labs")
                .then()
                .extract()
                .path("id");
        if (id == null) {
            throw new AssertionError("the lab did not start: no id in the response");
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Response lab = given().cookie(LearnerIds.COOKIE, cookie).get("/api/labs/" + id);
            String status = lab.path("status");
            if ("running".equals(status)) {
                return id;
            }
            if ("failed".equals(status) || "stopped".equals(status)) {
                throw new AssertionError("lab " + id + " is " + status + ": " + lab.path("reason"));
            }
            Thread.sleep(100);
        }
        throw new AssertionError("lab " + id + " did not become ready within " + timeout);
    }

    public static void stop(String labId, String cookie) {
        given().cookie(LearnerIds.COOKIE, cookie).delete("/api/labs/" + labId);
    }

    /** As {@link #stop(String, String)}, for @AfterAll methods, where RestAssured no longer points at the app. */
    public static void stop(java.net.URI base, String labId, String cookie) {
        given().baseUri("http://" + base.getHost())
                .port(base.getPort())
                .cookie(LearnerIds.COOKIE, cookie)
                .delete("/api/labs/" + labId);
    }
}
