package dev.tclab.grading.selftest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.grading.evaluate.AssertionResult;
import dev.tclab.grading.evaluate.FlowMiss;
import dev.tclab.grading.evaluate.FlowRoute;
import dev.tclab.grading.run.CheckResult;
import dev.tclab.grading.spec.SpecCheckValidator;
import dev.tclab.lesson.Lesson;
import dev.tclab.lesson.LessonLoader;
import dev.tclab.testing.RunsAlone;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * Issue 40 on the real engine: the outside author's HTB lesson (src/test/resources/semantics/routes). With the
 * solution's tree, the check whose flow gets the port the filter matches passes; the same check without a port fails,
 * and its failed expectation says the flow went through the default class 1:20 on its random destination port.
 */
@QuarkusTest
// Shared: its flows are capped at twice the check's 12 Mbit/s bound and shaped by the lesson's HTB at 10 Mbit/s.
@RunsAlone(value = RunsAlone.Group.MEASUREMENTS, hold = RunsAlone.Hold.SHARED)
class FlowRouteIT {

    @Inject
    LessonSelfTest selfTest;

    @Test
    void shouldSayTheUnportedFlowWentThroughTheDefaultClassWhileThePortedOnePasses() throws Exception {
        Lesson lesson = new LessonLoader(new SpecCheckValidator())
                .load(Path.of("src/test/resources/semantics/routes"), "semantics/routes");
        assertThat(lesson.problems()).isEmpty();
        Map<String, LessonSelfTest.Outcome> outcomes = new ConcurrentHashMap<>();
        selfTest.run(lesson, 1, true, line -> {}, o -> outcomes.put(o.check(), o));

        outcomes.values()
                .forEach(o -> System.out.println("FlowRouteIT " + o.check() + ": before "
                        + o.before().duration().toMillis() + " ms, after "
                        + o.after().duration().toMillis() + " ms; " + o.after().message()));
        CheckResult ported = outcomes.get("ported").after();
        assertThat(ported.passed()).as(ported.message()).isTrue();
        FlowRoute portedRoute = ported.flows().get(0);
        assertThat(portedRoute.serverPort()).isEqualTo(5201);
        assertThat(portedRoute.leafClassesOn("eth1"))
                .extracting(FlowRoute.Counted::id)
                .containsExactly("1:10");

        CheckResult unported = outcomes.get("unported").after();
        assertThat(unported.passed()).isFalse();
        FlowMiss miss = unported.assertions().stream()
                .map(AssertionResult::reason)
                .filter(r -> r != null && r.flow() != null)
                .map(r -> r.flow())
                .findFirst()
                .orElseThrow(() -> new AssertionError("no expectation says where the flow went: " + unported));
        assertThat(miss.serverPort()).isBetween(20000, 29999);
        assertThat(miss.sentence())
                .isEqualTo("Your flow went through class 1:20 (the default), not 1:10: no filter matched its TCP "
                        + "packets to destination port " + miss.serverPort() + ".");
        assertThat(unported.message())
                .containsPattern("is 0 \\((\\d+) borrows before the load, \\1 borrows after it\\)")
                .endsWith(". " + miss.sentence());
        FlowRoute route = unported.flows().get(0);
        assertThat(route.clientPort()).isNotNull();
        assertThat(route.counted())
                .extracting(c -> c.what() + " " + c.id())
                .contains("qdisc 1:", "class 1:1", "class 1:20")
                .doesNotContain("class 1:10");
        assertThat(route.counted())
                .allSatisfy(c -> assertThat(c.bytes()).isBetween(route.bytes(), route.bytes() * 3 / 2));
    }
}
