package dev.tclab.web;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tclab.lab.FakeRuntimeProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An author's course.yml (in {@code tclab.lessons.external-dir}) with problems: the catalog lists them for authors
 * with their lines, {@code GET /api/tracks} gives them, and the tracks leave out only what they name wrongly.
 */
@QuarkusTest
@TestProfile(CourseProblemsTest.AuthorsCourse.class)
class CourseProblemsTest {

    /** The fake runtime, with an author's folder holding only a course.yml. */
    public static class AuthorsCourse extends FakeRuntimeProfile {

        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> config = new HashMap<>(super.getConfigOverrides());
            try {
                Path dir = Files.createTempDirectory("tclab-course");
                Files.writeString(dir.resolve("course.yml"), """
                        tracks:
                          - id: extras
                            title: Extras
                            summary: More practice.
                            lessons:
                              - web-test
                              - no-such-lesson
                              - tbf-basics
                        """);
                config.put("tclab.lessons.external-dir", dir.toString());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return config;
        }
    }

    @Test
    void shouldListTheCourseFilesProblemsForAuthorsAndKeepTheRest() {
        String page = given().when().get("/").then().statusCode(200).extract().asString();
        assertTrue(page.contains("Problems in the course file"), page);
        assertTrue(
                page.contains("course.yml:7: tracks[0].lessons[1]: no lesson &#39;no-such-lesson&#39; exists"), page);
        assertTrue(
                page.contains("course.yml:8: tracks[0].lessons[2]: the lesson &#39;tbf-basics&#39; is already in the"
                        + " track &#39;foundations&#39; (lessons/course.yml:"),
                page);
        assertTrue(page.contains("id=\"track-extras\""), page);
        assertFalse(page.contains("/tmp/"), "no server path is shown: " + page);

        given().when()
                .get("/api/tracks")
                .then()
                .statusCode(200)
                .body(
                        "tracks.id",
                        equalTo(List.of(
                                "foundations", "queues-and-aqm", "classes-and-policing", "real-networks", "extras")))
                .body("tracks[4].lessons", equalTo(List.of("web-test")))
                .body("tracks[0].lessons", equalTo(List.of("tbf-basics", "htb-rate-accuracy", "netem-tcp")))
                .body("problems.size()", equalTo(2));
        given().when()
                .get("/api/lessons")
                .then()
                .body("find { it.slug == 'web-test' }.track", equalTo("extras"))
                .body("find { it.slug == 'web-test' }.place", equalTo(1));
    }
}
