package dev.tclab.grading.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tclab.grading.spec.SpecCheckValidator;
import dev.tclab.lesson.Lesson;
import dev.tclab.lesson.LessonLoader;
import dev.tclab.lesson.LessonRenderer;
import dev.tclab.lesson.LessonView;
import dev.tclab.lesson.Parameters;
import dev.tclab.lesson.markdown.BlockContext.CheckRef;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BaselineStepsTest {

    private static BaselineSteps of(String slug) {
        Lesson lesson = new LessonLoader(new SpecCheckValidator())
                .load(Path.of("src/main/resources/lessons").resolve(slug), "lessons/" + slug);
        LessonView view = LessonRenderer.render(
                lesson,
                Parameters.firstChoices(lesson.meta().parameters()),
                feature -> true,
                Map.of(),
                new SpecCheckValidator());
        return BaselineSteps.of(view.steps());
    }

    @Test
    void shouldNameTheStepWhoseCheckRecordsTheBaseline() {
        assertEquals(
                "This check compares with what step 1's check measured, and this lab has no such figure yet (a new "
                        + "lab starts without it): press Check on step 1 again, then here.",
                of("tbf-basics").explainMissing(List.of("native_mbps")));
    }

    @Test
    void shouldNameEveryStepInvolvedInOrder() {
        CheckRef recordsLater = check("late", 3, "  late_ping: lat.avg_ms\n");
        LessonView.StepView first = new LessonView.StepView(
                "first", "First", "", List.of(), List.of(check("first", 1, "  early_ping: lat.avg_ms\n")), List.of());
        LessonView.StepView none = new LessonView.StepView("middle", "Middle", "", List.of(), List.of(), List.of());
        LessonView.StepView third =
                new LessonView.StepView("late", "Late", "", List.of(), List.of(recordsLater), List.of());
        assertEquals(
                "This check compares with what the checks of step 1 and step 3 measured, and this lab has no "
                        + "such figure yet (a new lab starts without it): press Check on step 1 and step 3 again, then here.",
                BaselineSteps.of(List.of(first, none, third)).explainMissing(List.of("late_ping", "early_ping")));
    }

    private static CheckRef check(String stepId, int n, String record) {
        String yaml = """
                measure:
                  - { name: lat, node: client, ping: { target: 10.0.0.2 } }
                expect:
                  - { value: lat.avg_ms, below: 50ms }
                record:
                """ + record;
        return new CheckRef(stepId, stepId + "-check-" + n, "t", "steps/0" + n + ".md", 1, yaml);
    }
}
