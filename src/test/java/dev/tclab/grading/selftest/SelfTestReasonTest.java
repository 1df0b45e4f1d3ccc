package dev.tclab.grading.selftest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SelfTestReasonTest {

    private static SelfTestReport.CheckReport check(
            String step, boolean measureOnly, int failedBefore, int passedAfter, String... problems) {
        return new SelfTestReport.CheckReport(
                step, step + "-check", measureOnly, 2, failedBefore, passedAfter, List.of(), List.of(problems));
    }

    @Test
    void shouldNotBlameASolutionForAMeasureOnlyCheckThatFailed() {
        String reason = LessonSelfTest.failureReason(
                List.of(check("baseline", true, 0, 1, "did not pass (failed): too slow"), check("shape", false, 2, 2)));
        assertThat(reason).isEqualTo("baseline / baseline-check (measure-only) did not pass as the lab stood");
    }

    @Test
    void shouldNameEachWayACheckWentWrong() {
        String reason = LessonSelfTest.failureReason(List.of(
                check("shape", false, 1, 2, "passed before its solution: up.mbps = 9 Mbit/s"),
                check(
                        "fix",
                        false,
                        2,
                        0,
                        "did not pass after its solution (failed): x",
                        "solution on modem failed: `tc qdisc add`: Error")));
        assertThat(reason)
                .isEqualTo("shape / shape-check passed without its solution; fix / fix-check did not pass "
                        + "with its solution; a solution of fix failed");
    }
}
