package dev.tclab.lesson;

import dev.tclab.yaml.Checked;
import dev.tclab.yaml.FileProblem;
import dev.tclab.yaml.YamlDocument;
import dev.tclab.yaml.YamlException;
import dev.tclab.yaml.YamlSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a course.yml: its form is docs/schema/course.schema.json; a track id given twice in one file is checked
 * here. Rules across files and lessons (a lesson in two tracks, a slug that names no lesson) are {@link Course}'s.
 */
public final class CourseParser {

    static final YamlSchema SCHEMA = YamlSchema.load("course.schema.json");

    /** A track as written: {@code title} and {@code summary} may be numbers or booleans in YAML, read as text. */
    record TrackFile(String id, String title, String summary, List<String> lessons) {}

    private CourseParser() {}

    /** Every track of the file that fits the schema, where each lesson is listed, and the file's problems. */
    public static Course.File parse(String file, String text) {
        Checked checked;
        try {
            checked = SCHEMA.check(YamlDocument.parse(file, "the course file", text, 1));
        } catch (YamlException e) {
            return new Course.File(List.of(), List.of(), e.problems());
        }
        YamlDocument doc = checked.doc();
        List<FileProblem> problems = new ArrayList<>(checked.problems());
        List<Track> tracks = new ArrayList<>();
        List<Course.Listing> listings = new ArrayList<>();
        Map<String, Integer> idLines = new HashMap<>();
        for (int i = 0; i < doc.at("/tracks").size(); i++) {
            String at = YamlDocument.child("/tracks", i);
            if (!checked.fits(at)) {
                continue;
            }
            TrackFile track = doc.bind(at, TrackFile.class);
            Integer first = idLines.putIfAbsent(track.id(), doc.line(at + "/id"));
            if (first != null) {
                problems.add(doc.problem(
                        at + "/id",
                        "the track '" + track.id() + "' is already defined on line " + first
                                + "; give each track its own id"));
                continue;
            }
            tracks.add(new Track(track.id(), track.title(), track.summary(), track.lessons()));
            for (int j = 0; j < track.lessons().size(); j++) {
                String lesson = YamlDocument.child(at + "/lessons", j);
                listings.add(new Course.Listing(
                        track.lessons().get(j), track.id(), file, doc.line(lesson), doc.field(lesson)));
            }
        }
        return new Course.File(tracks, listings, problems);
    }
}
