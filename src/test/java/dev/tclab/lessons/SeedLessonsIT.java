package dev.tclab.lessons;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tclab.grading.AssertionResult;
import dev.tclab.grading.BaselineStore;
import dev.tclab.grading.CheckResult;
import dev.tclab.grading.CheckRunner;
import dev.tclab.grading.CheckSpec;
import dev.tclab.grading.CheckSpecParser;
import dev.tclab.lab.ExecResult;
import dev.tclab.lab.KernelCapabilities;
import dev.tclab.lab.LabRuntime;
import dev.tclab.lab.LabSpec;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jboss.logging.Logger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each seed lesson against the real engine, step by step, as a learner who follows the solutions would take it:
 * a step's checks must not pass before its solution ran and must pass after. A step without a solution block is
 * one to observe, not to change: its checks must pass as the earlier steps left the lab. Blocks are picked by
 * their guards against the Docker host's kernel, so on a kernel without CAKE the tbf fallbacks are what is tested.
 * Every measured value is logged, which is where docs/LESSONS.md's figures come from.
 *
 * <p>Parameters take their first choice; {@code -Dseed.params=rate=48,other=1} tries others, and
 * {@code -Dseed.lessons=tbf-basics} tests only the lessons named.
 */
@QuarkusTest
class SeedLessonsIT {

    private static final Logger LOG = Logger.getLogger(SeedLessonsIT.class);
    private static final Duration SOLUTION_TIMEOUT = Duration.ofSeconds(60);

    @Inject
    LabRuntime runtime;

    @Inject
    CheckRunner runner;

    @Inject
    BaselineStore baselines;

    private static final String ALL_LESSONS = "tbf-basics,bufferbloat-upload,bufferbloat-download,htb-rate-accuracy";

    /** The lessons to test: all four, or those named in {@code -Dseed.lessons=tbf-basics,...}. */
    static Stream<String> lessons() {
        return Arrays.stream(System.getProperty("seed.lessons", ALL_LESSONS).split(",")).map(String::strip);
    }

    @ParameterizedTest
    @MethodSource("lessons")
    void shouldFailEachStepsChecksBeforeItsSolutionAndPassThemAfter(String slug) throws Exception {
        SeedLessonFiles.Lesson lesson = SeedLessonFiles.read(slug);
        Map<String, String> params = parameters(lesson);
        KernelCapabilities kernel = runtime.probeKernel();
        String lab = "s" + UUID.randomUUID().toString().substring(0, 8);
        runtime.start(new LabSpec(lab, lesson.topology(), "seed-self-test", slug), (stage, detail) -> { });
        try {
            LOG.infof("%s with %s on kernel %s", slug, params, kernel.kernel());
            for (SeedLessonFiles.Step step : lesson.steps()) {
                takeStep(lab, step, params, kernel);
            }
        } finally {
            runtime.stop(lab);
            baselines.forget(lab);
        }
    }

    private void takeStep(String lab, SeedLessonFiles.Step step, Map<String, String> params, KernelCapabilities kernel)
            throws Exception {
        List<SeedLessonFiles.Block> checks = step.of("check", kernel);
        List<SeedLessonFiles.Block> solutions = step.of("solution", kernel);
        if (!solutions.isEmpty()) {
            for (SeedLessonFiles.Block check : checks) {
                CheckResult before = run(lab, step, check, params, "before");
                assertNotEquals(CheckResult.Status.PASSED, before.status(),
                        step.file() + ": " + before.checkId() + " passed before the step's solution ran");
                assertFalse(before.status() == CheckResult.Status.ERROR, step.file() + ": " + before.message());
            }
            for (SeedLessonFiles.Block solution : solutions) {
                String script = SeedLessonFiles.substitute(solution.body(), params);
                ExecResult done = runtime.exec(lab, solution.node(), List.of("sh", "-e", "-c", script), SOLUTION_TIMEOUT);
                assertTrue(done.ok(), step.file() + ":" + solution.line() + " solution on " + solution.node()
                        + " failed: " + done.stderr() + done.stdout());
            }
        }
        for (SeedLessonFiles.Block check : checks) {
            CheckResult after = run(lab, step, check, params, solutions.isEmpty() ? "observe" : "after");
            assertEquals(CheckResult.Status.PASSED, after.status(), step.file() + ": " + after.checkId() + ": "
                    + after.message() + " " + describe(after.assertions()));
        }
    }

    private CheckResult run(String lab, SeedLessonFiles.Step step, SeedLessonFiles.Block block, Map<String, String> params,
                            String phase) throws Exception {
        CheckSpec spec = CheckSpecParser.parse(step.file(), block.body(), block.line(), params);
        String id = spec.id() != null ? spec.id() : step.file() + ":" + block.line();
        CheckResult result = runner.run(lab, id, spec, progress -> { });
        LOG.infof("%s %s %s %s after %d sample(s): %s", step.file(), id, phase, result.status(), result.attempts(),
                describe(result.assertions()));
        return result;
    }

    private static String describe(List<AssertionResult> assertions) {
        return assertions.stream()
                .map(a -> a.children().isEmpty()
                        ? a.path() + "=" + a.measured() + (a.passed() ? " ok" : " NO")
                        : a.path() + "[" + describe(a.children()) + "]")
                .collect(Collectors.joining("; "));
    }

    private static Map<String, String> parameters(SeedLessonFiles.Lesson lesson) {
        Map<String, String> chosen = new LinkedHashMap<>();
        lesson.choices().forEach((name, choices) -> chosen.put(name, choices.get(0)));
        String override = System.getProperty("seed.params", "");
        for (String pair : override.split(",")) {
            String[] kv = pair.split("=", 2);
            if (kv.length == 2 && chosen.containsKey(kv[0].strip())) {
                chosen.put(kv[0].strip(), kv[1].strip());
            }
        }
        return chosen;
    }
}
