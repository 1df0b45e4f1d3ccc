package dev.tclab.web;

import dev.tclab.lesson.Course;
import dev.tclab.lesson.LessonCatalog;
import dev.tclab.lesson.Track;
import dev.tclab.yaml.FileProblem;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/** The course's tracks as JSON: the catalog's order of lessons (course.yml). */
@Path("/api/tracks")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
public class TrackApi {

    /**
     * The course: its tracks in order, each with its lessons' slugs in order, and the course files' problems for
     * authors ({@code file:line: message}; the tracks leave out the lessons they name wrongly).
     */
    public record CourseView(List<Track> tracks, List<String> problems) {}

    private final LessonCatalog catalog;

    public TrackApi(LessonCatalog catalog) {
        this.catalog = catalog;
    }

    @GET
    public CourseView course() {
        Course course = catalog.course();
        return new CourseView(
                course.tracks(),
                course.problems().stream().map(FileProblem::toString).toList());
    }
}
