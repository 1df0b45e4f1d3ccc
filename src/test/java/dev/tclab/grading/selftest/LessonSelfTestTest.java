package dev.tclab.grading.selftest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.lab.FakeLabRuntime;
import dev.tclab.lab.FakeRuntimeProfile;
import dev.tclab.lesson.LessonCatalog;
import dev.tclab.runtime.ExecResult;
import dev.tclab.tc.Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The self-test's verdicts, over a fake lab that behaves like the real one: iperf3 runs at veth speed until the
 * step's solution (a tbf on the modem) has run, then at 10 Mbit/s; ping is always fast.
 */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class LessonSelfTestTest {

    @Inject
    LessonSelfTest selfTest;

    @Inject
    LessonCatalog catalog;

    @Inject
    FakeLabRuntime runtime;

    @AfterEach
    void reset() {
        runtime.reset();
    }

    private void labShapedOnlyAfterTheSolution(boolean solutionWorks) {
        runtime.execHandler = (node, command) -> {
            boolean shaped = runtime.execLog.stream().anyMatch(c -> c.startsWith("modem: sh -c tc qdisc replace"));
            if (command.startsWith("sh -c tc qdisc replace")) {
                return solutionWorks
                        ? new ExecResult(0, "", "", false)
                        : new ExecResult(2, "", "Error: Specified qdisc kind is unknown.", false);
            }
            if (command.contains("iperf3")) {
                return new ExecResult(
                        0,
                        Fixtures.read(
                                shaped && solutionWorks
                                        ? "iperf3/iperf3-tcp-tbf10.json"
                                        : "iperf3/iperf3-tcp-reverse.json"),
                        "",
                        false);
            }
            return new ExecResult(0, Fixtures.read("ping/ping-iputils.txt"), "", false);
        };
    }

    @Test
    void shouldFlagTheCheckThatPassesWithoutItsSolutionAndCreditTheOneThatNeedsIt() throws Exception {
        labShapedOnlyAfterTheSolution(true);
        List<String> log = new ArrayList<>();

        SelfTestReport report = selfTest.run(catalog.lesson("example").orElseThrow(), 2, log::add);

        assertThat(report.verdict()).isEqualTo("broken");
        assertThat(report.runs()).isEqualTo(2);
        assertThat(report.passRate()).isZero();
        SelfTestReport.CheckReport shape = report.checks().stream()
                .filter(c -> c.check().equals("shape-check-1"))
                .findFirst()
                .orElseThrow();
        assertThat(shape.ok()).as(report.text()).isTrue();
        assertThat(shape.failedBefore()).isEqualTo(2);
        assertThat(shape.passedAfter()).isEqualTo(2);
        assertThat(shape.measured())
                .allSatisfy(m -> assertThat(m).contains("up.mbps = ").contains("Mbit/s"));
        SelfTestReport.CheckReport ping = report.checks().stream()
                .filter(c -> c.check().equals("ping-delay"))
                .findFirst()
                .orElseThrow();
        assertThat(ping.ok()).isFalse();
        assertThat(ping.problems()).anySatisfy(p -> assertThat(p).startsWith("passed before its solution"));
        assertThat(report.text()).contains("BROKEN").contains("BAD  shape / ping-delay");
        assertThat(runtime.running).as("every self-test lab is removed").isEmpty();
        assertThat(log).contains("lesson example: run 1 of 2");
    }

    @Test
    void shouldReportASolutionCommandThatFails() throws Exception {
        labShapedOnlyAfterTheSolution(false);

        SelfTestReport report = selfTest.run(catalog.lesson("example").orElseThrow(), 1, line -> {});

        assertThat(report.verdict()).isEqualTo("broken");
        assertThat(report.checks())
                .anySatisfy(c -> assertThat(c.problems())
                        .anySatisfy(p -> assertThat(p)
                                .contains("solution on modem failed")
                                .contains("Specified qdisc kind is unknown")));
    }

    @Test
    void shouldReportABrokenLessonWithoutStartingALab() throws Exception {
        SelfTestReport report = selfTest.run(catalog.lesson("broken-demo").orElseThrow(), 1, line -> {});
        assertThat(report.verdict()).isEqualTo("broken");
        assertThat(report.reason()).startsWith("the lesson does not validate");
        assertThat(runtime.execLog).isEmpty();
    }
}
