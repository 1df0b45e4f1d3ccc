package dev.tclab.lesson;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.grading.spec.SpecCheckValidator;
import dev.tclab.yaml.FileProblem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * course.yml: its tracks and their order, each lesson's place, and every problem with its file line (the schema's,
 * a track id given twice, a slug that names no lesson, a lesson in two tracks, an author's file overriding a track).
 */
class CourseTest {

    private static final List<String> KNOWN = List.of("a", "b", "c", "d");

    @TempDir
    Path external;

    private static Course course(String text) {
        return Course.of(List.of(CourseParser.parse("course.yml", text)), KNOWN);
    }

    private static List<String> problems(Course course) {
        return course.problems().stream().map(FileProblem::toString).toList();
    }

    @Test
    void shouldReadTracksInOrderAndPlaceEachLesson() {
        Course course = course("""
                tracks:
                  - id: first
                    title: First
                    summary: The first track.
                    lessons: [a, b, c]
                  - id: second
                    title: 2
                    summary: The second track.
                    lessons:
                      - d
                """);
        assertThat(course.problems()).isEmpty();
        assertThat(course.tracks()).extracting(Track::id).containsExactly("first", "second");
        assertThat(course.tracks().get(1).title())
                .as("a number is read as text")
                .isEqualTo("2");
        Course.Place b = course.place("b").orElseThrow();
        assertThat(b.track().id()).isEqualTo("first");
        assertThat(b.place()).isEqualTo(2);
        assertThat(b.of()).isEqualTo(3);
        assertThat(course.place("d").orElseThrow().place()).isEqualTo(1);
        assertThat(course.place("e")).isEmpty();
        assertThat(course.after(course.tracks().get(0)))
                .contains(course.tracks().get(1));
        assertThat(course.after(course.tracks().get(1))).isEmpty();
    }

    @Test
    void shouldReportEverySchemaProblemAtItsLine() {
        Course course = course("""
                tracks:
                  - id: Bad Id
                    title: T
                    summary: S
                    lessons: [a]
                  - id: no-title
                    summary: S
                    lessons: [b]
                    colour: red
                  - id: fine
                    title: Fine
                    summary: S
                    lessons: [c]
                """);
        assertThat(problems(course))
                .hasSize(3)
                .anySatisfy(p -> assertThat(p)
                        .startsWith("course.yml:2: tracks[0].id: 'Bad Id' is not valid: ")
                        .endsWith("lower-case letters, digits and dashes, e.g. foundations"))
                .anySatisfy(p ->
                        assertThat(p).startsWith("course.yml:6: tracks[1]: ").contains("title"))
                .anySatisfy(
                        p -> assertThat(p).startsWith("course.yml:9: tracks[1]").contains("colour"));
        assertThat(course.tracks())
                .as("the track that fits is kept")
                .extracting(Track::id)
                .containsExactly("fine");
    }

    @Test
    void shouldReportASyntaxErrorWithItsLine() {
        Course course = course("tracks:\n  - id: x\n    title: [unclosed\n");
        assertThat(problems(course)).singleElement().asString().startsWith("course.yml:");
        assertThat(course.problems().get(0).line()).isPositive();
        assertThat(course.tracks()).isEmpty();
    }

    @Test
    void shouldReportASlugThatNamesNoLessonAndALessonInTwoTracksAtTheirLines() {
        Course course = course("""
                tracks:
                  - id: first
                    title: First
                    summary: S
                    lessons:
                      - a
                      - no-such-lesson
                      - b
                  - id: second
                    title: Second
                    summary: S
                    lessons:
                      - c
                      - a
                  - id: first
                    title: Again
                    summary: S
                    lessons: [d]
                """);
        assertThat(problems(course))
                .containsExactly(
                        "course.yml:15: tracks[2].id: the track 'first' is already defined on line 2; give each"
                                + " track its own id",
                        "course.yml:7: tracks[0].lessons[1]: no lesson 'no-such-lesson' exists; name a lesson by"
                                + " its folder name, e.g. a",
                        "course.yml:14: tracks[1].lessons[1]: the lesson 'a' is already in the track 'first'"
                                + " (course.yml:6); a lesson belongs to one track");
        assertThat(course.track("first").orElseThrow().lessons()).containsExactly("a", "b");
        assertThat(course.track("second").orElseThrow().lessons()).containsExactly("c");
        assertThat(course.place("b").orElseThrow().place())
                .as("a listing that names no lesson takes no place")
                .isEqualTo(2);
    }

    @Test
    void shouldLetAnAuthorsCourseFileReplaceATrackAndAddOnesAfterTheBuiltInOnes() {
        Course.File builtIn = CourseParser.parse("lessons/course.yml", """
                tracks:
                  - { id: first, title: First, summary: S, lessons: [a, b] }
                  - { id: second, title: Second, summary: S, lessons: [c] }
                """);
        Course.File authors = CourseParser.parse("course.yml", """
                tracks:
                  - { id: mine, title: Mine, summary: S, lessons: [d] }
                  - { id: first, title: First, summary: S, lessons: [b] }
                  - { id: taken, title: Taken, summary: S, lessons: [c] }
                """);
        Course course = Course.of(List.of(builtIn, authors), KNOWN);
        assertThat(course.tracks()).extracting(Track::id).containsExactly("first", "second", "mine");
        assertThat(course.track("first").orElseThrow().lessons()).containsExactly("b");
        assertThat(course.place("a")).as("left out by the author's track").isEmpty();
        assertThat(problems(course))
                .containsExactly("course.yml:4: tracks[2].lessons[0]: the lesson 'c' is already in the track"
                        + " 'second' (lessons/course.yml:3); a lesson belongs to one track");
    }

    @Test
    void shouldOrderTheBuiltInLessonsWithoutAProblem() {
        LessonCatalog catalog = new LessonCatalog(new SpecCheckValidator(), Optional.empty());
        Course course = catalog.course();
        assertThat(course.problems()).isEmpty();
        assertThat(course.tracks())
                .extracting(Track::id)
                .startsWith("foundations")
                .contains("real-networks");
        assertThat(course.place("tbf-basics").orElseThrow().place()).isEqualTo(1);
        assertThat(course.place("htb-rate-accuracy").orElseThrow().track().id()).isEqualTo("foundations");
        assertThat(course.place("bufferbloat-download").orElseThrow().track().id())
                .isEqualTo("real-networks");
        assertThat(course.place("web-test")).as("a test lesson is in no track").isEmpty();
    }

    @Test
    void shouldSeeAnEditOfTheAuthorsCourseFileOnTheNextLoad() throws IOException {
        Path lesson = Files.createDirectories(external.resolve("extra/steps"));
        Files.writeString(lesson.resolve("../lesson.md"), "---\ntitle: Extra\nsummary: s\n---\nIntro\n");
        Files.writeString(lesson.resolve("01-one.md"), "---\ntitle: One\n---\nText\n");
        LessonCatalog catalog = new LessonCatalog(new SpecCheckValidator(), Optional.of(external));
        assertThat(catalog.course().place("extra")).isEmpty();

        Path file = external.resolve("course.yml");
        Files.writeString(file, "tracks:\n  - { id: extras, title: Extras, summary: S, lessons: [extra, nope] }\n");
        Course course = catalog.course();
        assertThat(course.place("extra").orElseThrow().track().title()).isEqualTo("Extras");
        assertThat(problems(course))
                .singleElement()
                .asString()
                .startsWith("course.yml:2: tracks[0].lessons[1]: no lesson 'nope' exists");
    }
}
