package dev.tclab.web;

import static io.restassured.RestAssured.given;

import io.restassured.filter.Filter;
import io.restassured.path.json.JsonPath;
import java.util.List;

/**
 * Where an option sits in a learner's own order of a quiz's options (each learner gets a shuffle of their own),
 * read as the learner reads it: from the lesson API, by the option's text.
 */
public final class QuizPositions {

    private QuizPositions() {}

    /** The position (from 0) of the option whose text is {@code text}, for the learner of {@code learner}'s cookie. */
    public static int of(Filter learner, String slug, String quizId, String text) {
        List<String> options = options(learner, slug, quizId);
        int position = options.indexOf(text);
        if (position < 0) {
            throw new AssertionError("quiz " + quizId + " of " + slug + " has no option '" + text + "': " + options);
        }
        return position;
    }

    /** The quiz's options in the learner's order. */
    public static List<String> options(Filter learner, String slug, String quizId) {
        JsonPath lesson = given().filter(learner)
                .get("/api/lessons/" + slug)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        List<String> options = lesson.getList("introQuizzes.find { it.id == '" + quizId + "' }.options");
        if (options == null) {
            options = lesson.getList("steps.quizzes.flatten().find { it.id == '" + quizId + "' }.options");
        }
        if (options == null) {
            throw new AssertionError("lesson " + slug + " has no quiz " + quizId);
        }
        return options;
    }
}
