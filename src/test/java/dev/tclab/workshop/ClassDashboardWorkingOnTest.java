package dev.tclab.workshop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.workshop.ClassDashboard.GradedStep;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Which step the dashboard says a learner is on, and so where the tally counts them stuck (issue 42, item 4): a
 * learner who skipped step 1 and keeps failing step 2 is on step 2, not on the step before the one they fail.
 */
class ClassDashboardWorkingOnTest {

    private static final GradedStep LOOK = new GradedStep("shaping", "look", "Look at the link");
    private static final GradedStep SHAPE = new GradedStep("shaping", "shape", "Shape the uplink");
    private static final GradedStep MEASURE = new GradedStep("shaping", "measure", "Measure the delay");
    private static final List<GradedStep> GRADED = List.of(LOOK, SHAPE, MEASURE);
    private static final Instant T0 = Instant.parse("2026-12-06T10:00:00Z");

    private static ProgressReader.StepRuns run(String stepId, String state, Instant passedAt, int minute) {
        Instant at = T0.plusSeconds(60L * minute);
        return new ProgressReader.StepRuns(
                "ann", "shaping", stepId, 1, passedAt, at, state, state + " detail", at, "run-" + minute, "lab-1");
    }

    private static GradedStep workingOn(List<ProgressReader.StepRuns> runs) {
        Map<String, ProgressReader.StepRuns> byStep = runs.stream()
                .collect(Collectors.toMap(r -> r.lesson() + "\n" + r.stepId(), Function.identity(), (a, b) -> b));
        return ClassDashboard.workingOn(GRADED, "shaping", runs, byStep).orElse(null);
    }

    @Test
    void aLearnerWhoSkippedAStepAndKeepsFailingTheNextIsOnTheOneTheyFail() {
        assertThat(workingOn(List.of(run("shape", "failed", null, 3)))).isEqualTo(SHAPE);
    }

    @Test
    void withoutAnyCheckItIsTheFirstGradedStep() {
        assertThat(workingOn(List.of())).isEqualTo(LOOK);
    }

    @Test
    void afterPassingTheStepTheyCheckedLastItIsTheFirstStepNotPassed() {
        ProgressReader.StepRuns shapePassed = run("shape", "passed", T0.plusSeconds(240), 4);
        assertThat(workingOn(List.of(shapePassed))).isEqualTo(LOOK);
        ProgressReader.StepRuns lookPassed = run("look", "passed", T0.plusSeconds(300), 5);
        assertThat(workingOn(List.of(shapePassed, lookPassed))).isEqualTo(MEASURE);
    }

    @Test
    void aStepRecheckedAfterPassingIsNotWhereTheyAre() {
        ProgressReader.StepRuns lookPassedThenFailed = run("look", "failed", T0, 6);
        assertThat(workingOn(List.of(lookPassedThenFailed, run("shape", "failed", null, 2))))
                .isEqualTo(SHAPE);
    }

    @Test
    void allPassedIsNoStep() {
        assertThat(workingOn(List.of(
                        run("look", "passed", T0, 1), run("shape", "passed", T0, 2), run("measure", "passed", T0, 3))))
                .isNull();
    }
}
