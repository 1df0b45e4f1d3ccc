package dev.tclab.grading.selftest;

import dev.tclab.grading.evaluate.AssertionResult;
import dev.tclab.grading.run.BaselineSteps;
import dev.tclab.grading.run.BaselineStore;
import dev.tclab.grading.run.CheckResult;
import dev.tclab.grading.run.CheckRunner;
import dev.tclab.grading.run.LinkProof;
import dev.tclab.grading.spec.CheckSpecException;
import dev.tclab.grading.spec.CheckSpecParser;
import dev.tclab.grading.spec.SpecCheckValidator;
import dev.tclab.lesson.Lesson;
import dev.tclab.lesson.LessonRenderer;
import dev.tclab.lesson.LessonView;
import dev.tclab.lesson.Parameters;
import dev.tclab.lesson.markdown.BlockContext.CheckRef;
import dev.tclab.lesson.markdown.BlockContext.SolutionRef;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.KernelCapabilities;
import dev.tclab.runtime.LabEngine;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.runtime.LabSpec;
import dev.tclab.runtime.LabStartException;
import dev.tclab.runtime.NodeNotFoundException;
import dev.tclab.system.SystemStatus;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Proves a lesson works, the way a learner would go through it: in a fresh lab, for every step in order, each check
 * must fail before the step's solution is applied and pass after. A step without a solution is measure-only (it
 * records a baseline, say): its checks must pass as the lab stands. Repeated to measure how reliably it grades.
 * Run i uses the i-th of {@link Parameters#everyChoice} (in turn), so with as many runs as a lesson has choices every
 * choice of every parameter, related ones included, is self-tested.
 */
@ApplicationScoped
public class LessonSelfTest {

    private static final Duration SOLUTION_TIMEOUT = Duration.ofSeconds(60);
    /** The pseudo-step a lab that did not start is reported under. */
    private static final String LAB_START = "(lab)";

    private final LabRuntime runtime;
    private final LabEngine engine;
    private final CheckRunner runner;
    private final BaselineStore baselines;
    private final SystemStatus system;
    private final LinkProof linkProof;

    public LessonSelfTest(
            LabRuntime runtime,
            LabEngine engine,
            CheckRunner runner,
            BaselineStore baselines,
            SystemStatus system,
            LinkProof linkProof) {
        this.runtime = runtime;
        this.engine = engine;
        this.runner = runner;
        this.baselines = baselines;
        this.system = system;
        this.linkProof = linkProof;
    }

    /** What one run gave a check: its result before the step's solution (null when measure-only) and after it. */
    public record Outcome(String step, String check, CheckResult before, CheckResult after) {}

    /** Self-tests {@code lesson} as the configuration grades ({@code tclab.grading.fast-paths}). */
    public SelfTestReport run(Lesson lesson, int runs, Consumer<String> log) throws EngineUnavailableException {
        return run(lesson, runs, runner.fastPaths(), log, outcome -> {});
    }

    /**
     * Self-tests {@code lesson} with its checks run on the fast paths or the plain way ({@code fastPaths}), handing
     * each check's results of each run to {@code outcomes}: the semantics corpus compares the two ways.
     */
    public SelfTestReport run(
            Lesson lesson, int runs, boolean fastPaths, Consumer<String> log, Consumer<Outcome> outcomes)
            throws EngineUnavailableException {
        long start = System.nanoTime();
        if (lesson.broken()) {
            return verdict(lesson, "broken", "the lesson does not validate: " + lesson.problems(), 0, List.of(), start);
        }
        KernelCapabilities kernel = kernel(lesson);
        List<String> missing = lesson.meta().requires().stream()
                .filter(f -> !kernel.supports(f))
                .toList();
        if (!missing.isEmpty()) {
            return verdict(
                    lesson, "skipped", "the lab's kernel lacks " + String.join(", ", missing), 0, List.of(), start);
        }
        Map<String, Tally> tallies = new LinkedHashMap<>();
        int cleanRuns = 0;
        for (int i = 1; i <= runs; i++) {
            log.accept("lesson " + lesson.slug() + ": run " + i + " of " + runs);
            List<Map<String, String>> choices =
                    Parameters.everyChoice(lesson.meta().parameters());
            if (runOnce(lesson, choices.get((i - 1) % choices.size()), kernel, tallies, fastPaths, log, outcomes)) {
                cleanRuns++;
            }
        }
        List<SelfTestReport.CheckReport> checks =
                tallies.values().stream().map(t -> t.report(runs)).toList();
        boolean ok = !checks.isEmpty() && checks.stream().allMatch(SelfTestReport.CheckReport::ok);
        String reason = checks.isEmpty() ? "the lesson has no checks to test" : ok ? null : failureReason(checks);
        return new SelfTestReport(
                lesson.slug(),
                ok ? "ok" : "broken",
                reason,
                runs,
                (double) cleanRuns / runs,
                checks,
                (System.nanoTime() - start) / 1_000_000);
    }

    /** One pass through the lesson in a fresh lab; true when every check behaved. */
    private boolean runOnce(
            Lesson lesson,
            Map<String, String> parameters,
            KernelCapabilities kernel,
            Map<String, Tally> tallies,
            boolean fastPaths,
            Consumer<String> log,
            Consumer<Outcome> outcomes)
            throws EngineUnavailableException {
        LessonView view =
                LessonRenderer.render(lesson, parameters, kernel::supports, Map.of(), new SpecCheckValidator());
        String labId = "st" + UUID.randomUUID().toString().substring(0, 8);
        boolean clean = true;
        // Its flows and pings are proven as a learner's are (the server's report and links, the routes, the echo
        // replies): a self-test that skipped them passed lessons whose every Check failed in the app (9eca047).
        try (LinkProof.Proving proving = linkProof.proving(labId, lesson.topology())) {
            runtime.start(new LabSpec(labId, lesson.topology(), "selftest", lesson.slug()), (stage, detail) -> {});
            BaselineSteps baselineSteps = BaselineSteps.of(view.steps());
            for (LessonView.StepView step : view.steps()) {
                boolean measureOnly = step.solutions().isEmpty();
                Map<String, CheckResult> before =
                        measureOnly ? Map.of() : runChecks(labId, step, baselineSteps, fastPaths);
                List<String> solutionProblems = applySolutions(labId, step.solutions());
                Map<String, CheckResult> after = runChecks(labId, step, baselineSteps, fastPaths);
                for (CheckRef check : step.checks()) {
                    Tally tally = tallies.computeIfAbsent(
                            step.id() + "/" + check.id(), k -> new Tally(step.id(), check.id(), measureOnly));
                    clean &= tally.add(before.get(check.id()), after.get(check.id()), solutionProblems);
                    outcomes.accept(new Outcome(step.id(), check.id(), before.get(check.id()), after.get(check.id())));
                    log.accept("  " + step.id() + "/" + check.id() + ": "
                            + (measureOnly
                                    ? "measure-only"
                                    : "before " + before.get(check.id()).status())
                            + ", after " + after.get(check.id()).status());
                }
            }
        } catch (LabStartException e) {
            tallies.computeIfAbsent("lab", k -> new Tally(LAB_START, "start", false))
                    .problems
                    .add(e.getMessage());
            clean = false;
        } finally {
            runtime.stop(labId);
            baselines.forget(labId);
        }
        return clean;
    }

    /**
     * What went wrong, check by check, in the terms of its step: a measure-only step has no solution, so its check
     * can only have failed as the lab stood.
     */
    static String failureReason(List<SelfTestReport.CheckReport> checks) {
        List<String> parts = new ArrayList<>();
        for (SelfTestReport.CheckReport c : checks) {
            String name = c.step() + " / " + c.check();
            if (c.ok()) {
                continue;
            }
            if (c.step().equals(LAB_START)) {
                parts.add("the lab did not start");
                continue;
            }
            if (!c.measureOnly() && c.failedBefore() < c.runs()) {
                parts.add(name + " passed without its solution");
            }
            if (c.passedAfter() < c.runs()) {
                parts.add(name
                        + (c.measureOnly()
                                ? " (measure-only) did not pass as the lab stood"
                                : " did not pass with its solution"));
            }
            if (c.problems().stream().anyMatch(p -> !p.startsWith("passed before") && !p.startsWith("did not pass"))) {
                parts.add("a solution of " + c.step() + " failed");
            }
        }
        return String.join("; ", parts.stream().distinct().toList());
    }

    private Map<String, CheckResult> runChecks(
            String labId, LessonView.StepView step, BaselineSteps baselineSteps, boolean fastPaths) {
        Map<String, CheckResult> results = new LinkedHashMap<>();
        for (CheckRef check : step.checks()) {
            try {
                results.put(
                        check.id(),
                        runner.run(
                                labId,
                                labId,
                                check.id(),
                                CheckSpecParser.parse(check.file(), check.yaml(), check.line()),
                                baselineSteps,
                                p -> {},
                                fastPaths));
            } catch (CheckSpecException e) {
                throw new IllegalStateException(
                        "a validated lesson has a check that does not parse: " + e.getMessage(), e);
            }
        }
        return results;
    }

    private List<String> applySolutions(String labId, List<SolutionRef> solutions) throws EngineUnavailableException {
        List<String> problems = new ArrayList<>();
        for (SolutionRef solution : solutions) {
            for (String line : solution.lines()) {
                try {
                    ExecResult result =
                            runtime.exec(labId, solution.node(), List.of("sh", "-c", line), SOLUTION_TIMEOUT);
                    if (!result.ok()) {
                        problems.add("solution on " + solution.node() + " failed: `" + line + "`: "
                                + (result.timedOut() ? "timed out" : (result.stderr() + result.stdout()).trim()));
                    }
                } catch (NodeNotFoundException e) {
                    problems.add(e.getMessage());
                }
            }
        }
        return problems;
    }

    /** The kernel the lesson's labs run on: their own (UML), or the host's. */
    private KernelCapabilities kernel(Lesson lesson) throws EngineUnavailableException {
        Optional<KernelCapabilities> own = engine.ownKernel(lesson.topology(), lesson.slug());
        if (own.isPresent()) {
            return own.get();
        }
        KernelCapabilities known = system.snapshot().kernel();
        return known.probed() ? known : engine.probeKernel();
    }

    private static SelfTestReport verdict(
            Lesson lesson,
            String verdict,
            String reason,
            int runs,
            List<SelfTestReport.CheckReport> checks,
            long start) {
        return new SelfTestReport(
                lesson.slug(), verdict, reason, runs, 0, checks, (System.nanoTime() - start) / 1_000_000);
    }

    /** Counts for one check across runs. */
    private static final class Tally {
        private final String step;
        private final String check;
        private final boolean measureOnly;
        private int failedBefore;
        private int passedAfter;
        private final List<String> measured = new ArrayList<>();
        private final List<String> problems = new ArrayList<>();

        Tally(String step, String check, boolean measureOnly) {
            this.step = step;
            this.check = check;
            this.measureOnly = measureOnly;
        }

        /** Counts one run; {@code before} is null for a measure-only step. */
        boolean add(CheckResult before, CheckResult after, List<String> solutionProblems) {
            boolean ok = true;
            if (before != null && before.passed()) {
                ok = false;
                problems.add("passed before its solution: " + summary(before));
            } else if (before != null) {
                failedBefore++;
            }
            if (after.passed()) {
                passedAfter++;
                measured.add(summary(after));
            } else {
                ok = false;
                problems.add(
                        (measureOnly ? "did not pass (" : "did not pass after its solution (") + after.status() + "): "
                                + after.message()
                                + (after.errors().isEmpty() ? "" : " " + after.errors()) + "; " + summary(after));
            }
            problems.addAll(solutionProblems);
            return ok && solutionProblems.isEmpty();
        }

        SelfTestReport.CheckReport report(int runs) {
            return new SelfTestReport.CheckReport(
                    step,
                    check,
                    measureOnly,
                    runs,
                    failedBefore,
                    passedAfter,
                    List.copyOf(measured),
                    List.copyOf(problems));
        }

        private static String summary(CheckResult result) {
            return result.assertions().stream().map(Tally::describe).collect(Collectors.joining("; "));
        }

        /** One expectation with what it measured; a failed one says so (a measure-only step's failure, say). */
        private static String describe(AssertionResult a) {
            return a.children().isEmpty()
                    ? (a.passed() ? "" : "FAILED ") + a.path() + " = " + a.measured() + " (expected " + a.expected()
                            + ")"
                    : a.children().stream().map(Tally::describe).collect(Collectors.joining(", ", a.path() + "[", "]"));
        }
    }
}
