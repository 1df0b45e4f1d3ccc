package dev.tclab.lesson;

import java.util.List;

/**
 * A track of the course: lessons to take in order, under a title (course.yml).
 *
 * @param id      its name in the API and in course files, e.g. {@code foundations}
 * @param lessons the slugs of its lessons, in order
 */
public record Track(String id, String title, String summary, List<String> lessons) {

    public Track {
        lessons = List.copyOf(lessons);
    }
}
