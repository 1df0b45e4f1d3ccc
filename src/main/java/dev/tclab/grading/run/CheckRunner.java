package dev.tclab.grading.run;

import dev.tclab.config.TclabConfig;
import dev.tclab.grading.evaluate.AssertionResult;
import dev.tclab.grading.evaluate.Evaluator;
import dev.tclab.grading.evaluate.FlowRoute;
import dev.tclab.grading.evaluate.Subjects;
import dev.tclab.grading.evaluate.Values;
import dev.tclab.grading.spec.Assertion;
import dev.tclab.grading.spec.CheckSpec;
import dev.tclab.grading.spec.Counters;
import dev.tclab.grading.spec.Iperf3Measurement;
import dev.tclab.grading.spec.Measure;
import dev.tclab.grading.spec.Measurement;
import dev.tclab.grading.spec.MeasurementOutcome;
import dev.tclab.grading.spec.OutputReader;
import dev.tclab.runtime.CommandSequence;
import dev.tclab.runtime.CpuPriority;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.runtime.NodeNotFoundException;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * Runs a check against a lab: takes samples (each runs every measurement, loads concurrently with what runs
 * {@code during} them), evaluates the expectations, retries, requires a stable window, and records baselines.
 * Loads run through a {@link LoadRunner}, in the {@link MeasurementSlots} they take.
 * Blocks for seconds: call it from a worker thread, never from the event loop.
 */
@ApplicationScoped
public class CheckRunner {

    /** How long a load runs before measurements {@code during} it start, so they see a loaded link. */
    static final Duration LOAD_LEAD = Duration.ofSeconds(1);
    /**
     * How long servers started alongside a check's gate read wait for their load's client (they live this much
     * longer than the load's own timeout); a load that starts later, after a long wait for its slots, gets new ones.
     * An idle server costs its sidecar three processes and no CPU, so the grace covers a class's slot waits.
     */
    static final Duration EARLY_SERVER_GRACE = Duration.ofSeconds(30);

    private final LabRuntime runtime;
    private final BaselineStore baselines;
    private final MeasurementSlots slots;
    private final Duration loadLead;
    private final boolean fastPaths;
    private final LoadRunner loads;
    private final LinkProof linkProof;

    @Inject
    public CheckRunner(
            LabRuntime runtime,
            BaselineStore baselines,
            MeasurementSlots slots,
            LinkProof linkProof,
            TclabConfig config) {
        this(
                runtime,
                baselines,
                slots,
                LOAD_LEAD,
                EARLY_SERVER_GRACE,
                config.grading().fastPaths(),
                linkProof);
    }

    CheckRunner(LabRuntime runtime, BaselineStore baselines, MeasurementSlots slots, Duration loadLead) {
        this(runtime, baselines, slots, loadLead, EARLY_SERVER_GRACE, true);
    }

    /** Without a lab.yml to prove flows against (the unit tests' scripted labs have none). */
    CheckRunner(
            LabRuntime runtime,
            BaselineStore baselines,
            MeasurementSlots slots,
            Duration loadLead,
            Duration earlyServerGrace,
            boolean fastPaths) {
        this(
                runtime,
                baselines,
                slots,
                loadLead,
                earlyServerGrace,
                fastPaths,
                new LinkProof(labId -> Optional.empty()));
    }

    private CheckRunner(
            LabRuntime runtime,
            BaselineStore baselines,
            MeasurementSlots slots,
            Duration loadLead,
            Duration earlyServerGrace,
            boolean fastPaths,
            LinkProof linkProof) {
        this.runtime = runtime;
        this.baselines = baselines;
        this.slots = slots;
        this.loadLead = loadLead;
        this.fastPaths = fastPaths;
        this.loads = new LoadRunner(runtime, linkProof, earlyServerGrace);
        this.linkProof = linkProof;
    }

    /** Whether checks take the fast paths unless told otherwise ({@code tclab.grading.fast-paths}). */
    public boolean fastPaths() {
        return fastPaths;
    }

    /**
     * A sample's outcome; {@code platformError} is set when the lab could not be reached at all, {@code settled} when
     * it failed on what the check reads first, so its loads were skipped and no retry could change the verdict.
     * {@code note} says what a capped flow may have hidden (empty when nothing).
     */
    private record Sample(
            Values values,
            Map<String, String> raw,
            List<AssertionResult> assertions,
            boolean passed,
            String platformError,
            String settled,
            String note,
            List<FlowRoute> routes) {

        Sample(
                Values values,
                Map<String, String> raw,
                List<AssertionResult> assertions,
                boolean passed,
                String platformError) {
            this(values, raw, assertions, passed, platformError, null, "", List.of());
        }
    }

    /**
     * One sample of a check's run: its number, the loads that ran as fast as the platform capped them, and where its
     * flows went.
     */
    private record Attempt(
            CheckContext check,
            int number,
            Subjects subjects,
            Map<String, MeasurementCost> reachedCap,
            List<FlowRoute> routes) {

        Attempt(CheckContext check, int number, Subjects subjects) {
            this(check, number, subjects, new ConcurrentHashMap<>(), new CopyOnWriteArrayList<>());
        }

        void report(CheckProgress.Stage stage, String detail) {
            check.report(stage, number, detail);
        }
    }

    /**
     * Runs {@code spec} in the lab. {@code checkId} names the check in progress events and the result (the spec's
     * id or the lesson's {@code <step>-check-<n>}). A check comparing with a baseline this lab has not recorded
     * ends at once in ERROR, saying which step records it ({@code baselineSteps}): no sample could pass.
     */
    public CheckResult run(
            String labId,
            String checkId,
            CheckSpec spec,
            BaselineSteps baselineSteps,
            Consumer<CheckProgress> progress) {
        // No learner behind it (a lesson self-test): the lab takes its turn for measurement slots as its own learner.
        return run(labId, labId, checkId, spec, baselineSteps, progress);
    }

    /** As {@link #run(String, String, CheckSpec, BaselineSteps, Consumer)}, for {@code learner}'s lab. */
    public CheckResult run(
            String learner,
            String labId,
            String checkId,
            CheckSpec spec,
            BaselineSteps baselineSteps,
            Consumer<CheckProgress> progress) {
        return run(learner, labId, checkId, spec, baselineSteps, progress, fastPaths);
    }

    /**
     * As {@link #run(String, String, String, CheckSpec, BaselineSteps, Consumer)}, on the fast paths or the plain way
     * whatever the configuration says ({@code tclab.grading.fast-paths}): the semantics corpus runs both and compares.
     */
    public CheckResult run(
            String learner,
            String labId,
            String checkId,
            CheckSpec spec,
            BaselineSteps baselineSteps,
            Consumer<CheckProgress> progress,
            boolean fast) {
        return run(new CheckContext(learner, labId, checkId, spec, progress, fast), baselineSteps);
    }

    private CheckResult run(CheckContext check, BaselineSteps baselineSteps) {
        CheckSpec spec = check.spec();
        Instant start = Instant.now();
        Set<String> missing = missingBaselines(check.labId(), spec);
        if (!missing.isEmpty()) {
            return done(check, CheckResult.Status.ERROR, 0, null, baselineSteps.explainMissing(missing), start);
        }
        Instant deadline = start.plus(spec.timeout());
        Subjects subjects = Subjects.of(spec, baselineSteps.byName());
        int consecutive = 0;
        int failures = 0;
        int attempt = 0;
        while (true) {
            attempt++;
            check.report(CheckProgress.Stage.MEASURING, attempt, "measuring");
            Sample sample;
            try {
                sample = sample(new Attempt(check, attempt, subjects));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return done(check, CheckResult.Status.ERROR, attempt, null, "The check was interrupted.", start);
            }
            if (sample.platformError() != null) {
                return done(check, CheckResult.Status.ERROR, attempt, sample, sample.platformError(), start);
            }
            if (sample.settled() != null) {
                return done(check, CheckResult.Status.FAILED, attempt, sample, sample.settled(), start);
            }
            if (sample.passed()) {
                consecutive++;
                if (consecutive >= spec.stable()) {
                    String note = recordBaselines(check.labId(), spec, sample.values());
                    return done(check, CheckResult.Status.PASSED, attempt, sample, passMessage(spec) + note, start);
                }
            } else {
                consecutive = 0;
                failures++;
                if (failures > spec.retries()) {
                    return done(
                            check,
                            CheckResult.Status.FAILED,
                            attempt,
                            sample,
                            failMessage(sample) + sample.note(),
                            start);
                }
            }
            if (Instant.now().plus(spec.interval()).isAfter(deadline)) {
                String why = sample.passed()
                        ? "It held for " + consecutive + " of the " + spec.stable()
                                + " consecutive samples needed before the "
                                + spec.timeout().toSeconds() + " s timeout."
                        : failMessage(sample) + " (gave up after the "
                                + spec.timeout().toSeconds() + " s timeout)";
                return done(check, CheckResult.Status.FAILED, attempt, sample, why, start);
            }
            check.report(
                    CheckProgress.Stage.WAITING,
                    attempt,
                    sample.passed()
                            ? "holds; sampling again (" + consecutive + "/" + spec.stable() + ")"
                            : "does not hold yet; retrying");
            try {
                Thread.sleep(spec.interval().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return done(check, CheckResult.Status.ERROR, attempt, sample, "The check was interrupted.", start);
            }
        }
    }

    private Set<String> missingBaselines(String labId, CheckSpec spec) {
        Set<String> missing = new TreeSet<>(spec.baselinesUsed());
        missing.removeAll(baselines.all(labId).keySet());
        return missing;
    }

    /**
     * One sample. The fast way reads the check's gates first (see {@link CheapFirst}) and runs the reads listed
     * right after a single-flow load in its client's exec; the plain way runs every measurement on its own, in order.
     */
    private Sample sample(Attempt attempt) throws InterruptedException {
        CheckContext check = attempt.check();
        CheckSpec spec = check.spec();
        String labId = check.labId();
        Map<String, Object> results = new LinkedHashMap<>();
        Map<String, String> raw = new LinkedHashMap<>();
        Map<String, String> errors = new LinkedHashMap<>();
        Map<String, MeasurementOutcome> firstRead = new LinkedHashMap<>();
        Map<String, MeasurementOutcome> readAfterLoad = new ConcurrentHashMap<>();
        LoadRunner.EarlyServers early = LoadRunner.EarlyServers.NONE;
        try {
            List<Assertion> gates = check.fast() ? CheapFirst.gates(spec) : List.of();
            if (!gates.isEmpty()) {
                Gated gated = readGatesWhileServersStart(attempt, gates, firstRead);
                if (gated.settled().isPresent()) {
                    return gated.settled().get();
                }
                early = gated.early();
                firstRead.keySet().retainAll(CheapFirst.readBeforeLoads(spec));
            }
            for (Measurement m : spec.measurements()) {
                if (m.during() != null || m.over() != null) {
                    continue;
                }
                List<Measurement> dependents = spec.during(m.name());
                List<Measurement> around = spec.over(m.name());
                if (dependents.isEmpty() && around.isEmpty()) {
                    MeasurementOutcome read = firstRead.getOrDefault(m.name(), readAfterLoad.get(m.name()));
                    LoadRunner.AfterLoad after = check.fast()
                            ? new LoadRunner.AfterLoad(readsRightAfter(spec, m, firstRead.keySet()), readAfterLoad)
                            : LoadRunner.AfterLoad.NONE;
                    keep(
                            m,
                            read != null
                                    ? read
                                    : measure(
                                            attempt, m, new LoadRunner.Setup(LoadRunner.Prelude.NOTHING, after, early)),
                            results,
                            raw,
                            errors);
                    continue;
                }
                // Counters are read just before the load's clients start (its slots held, its servers listening), so
                // neither a wait nor a server start falls inside the window; what runs during the load starts a lead
                // after that, so it sees the load, however long the load waited for its slots and servers.
                Map<Measurement, MeasurementOutcome> before = new ConcurrentHashMap<>();
                CountDownLatch starting = new CountDownLatch(1);
                LoadRunner.Prelude readBefore = () -> {
                    for (Measurement c : around) {
                        before.put(c, execute(labId, c));
                    }
                    starting.countDown();
                };
                LoadRunner.Setup setup = new LoadRunner.Setup(readBefore, LoadRunner.AfterLoad.NONE, early);
                Future<MeasurementOutcome> load = loads.inBackground(() -> {
                    try {
                        return measure(attempt, m, setup);
                    } finally {
                        starting.countDown();
                    }
                });
                starting.await();
                Thread.sleep(loadLead.toMillis());
                for (Measurement d : dependents) {
                    keep(d, measure(attempt, d, LoadRunner.Setup.PLAIN), results, raw, errors);
                }
                keep(m, LoadRunner.join(load), results, raw, errors);
                for (Measurement c : around) {
                    keep(
                            c,
                            overLoad(before.get(c), execute(labId, c), ((Iperf3Measurement) m).seconds()),
                            results,
                            raw,
                            errors);
                }
            }
        } catch (EngineUnavailableException e) {
            return new Sample(null, raw, List.of(), false, "The lab cannot be reached: " + e.getMessage());
        } catch (NodeNotFoundException e) {
            return new Sample(
                    null, raw, List.of(), false, "The lab is not running (" + e.getMessage() + "). Start it again.");
        }
        Values values = new Values(results, baselines.all(labId), errors);
        List<FlowRoute> routes = List.copyOf(attempt.routes());
        List<AssertionResult> assertions =
                FlowMisses.attach(spec, Evaluator.evaluate(spec.expect(), values, attempt.subjects()), routes);
        boolean passed = errors.isEmpty() && assertions.stream().allMatch(AssertionResult::passed);
        String note = attempt.reachedCap().entrySet().stream()
                .map(e -> " (the platform capped " + e.getKey() + " at "
                        + e.getValue().capText()
                        + ", twice what this check accepts, and it ran that fast: the link may be faster)")
                .reduce("", String::concat);
        return new Sample(values, raw, assertions, passed, null, null, note, routes);
    }

    /** What the gate read settled (the sample's answer), or else the servers started for the first load meanwhile. */
    private record Gated(Optional<Sample> settled, LoadRunner.EarlyServers early) {}

    /**
     * Reads the gates' cheap measurements while the servers of the check's first load start, in one round of execs
     * ({@link LoadRunner#readWhileServersStart}): a passing check then waits for one round of execs less
     * (under a class's load each round costs 0.5-2 s of exec starts). When a gate fails, the loads could not make the
     * check pass: the sample ends there, its skipped measurements saying so, and the servers are stopped before the
     * answer, so pressing Check in a loop never piles them up in a sidecar with its small process limit. Otherwise
     * the reads are left in {@code firstRead} and the full sample follows.
     */
    private Gated readGatesWhileServersStart(
            Attempt attempt, List<Assertion> gates, Map<String, MeasurementOutcome> firstRead)
            throws EngineUnavailableException, NodeNotFoundException, InterruptedException {
        String labId = attempt.check().labId();
        CheckSpec spec = attempt.check().spec();
        List<Measurement> cheap = CheapFirst.cheap(spec);
        Map<String, List<CommandSequence.Step>> readsByNode = new LinkedHashMap<>();
        cheap.forEach(m -> readsByNode
                .computeIfAbsent(m.node(), n -> new ArrayList<>())
                .add(new CommandSequence.Step(m.argv(), m.timeout())));
        // The first load's servers start here, before its slot: in a lab with its own kernel, starved by other labs'
        // CPU hogs, a server started at rest missed its start deadline (once listening, it costs nothing). The raise
        // is asked for beside the reads and given back without waiting, so an obvious failure's answer never waits
        // for the engine's two updates (0.1-0.4 s); the lab's open raises are counted, so a slot's raise taken before
        // this one is given back keeps the lab raised without another update.
        Future<CpuPriority> raised = loads.inBackground(() -> runtime.raiseCpuPriority(labId));
        LoadRunner.GateRound round;
        try {
            round = loads.readWhileServersStart(labId, firstLoad(spec).orElse(null), readsByNode);
        } finally {
            loads.inBackground(() -> {
                raised.get().close();
                return null;
            });
        }
        Map<String, Integer> nextOfNode = new LinkedHashMap<>();
        Map<String, Object> results = new LinkedHashMap<>();
        Map<String, String> raw = new LinkedHashMap<>();
        Map<String, String> errors = new LinkedHashMap<>();
        for (Measurement m : cheap) {
            int index = nextOfNode.merge(m.node(), 1, Integer::sum) - 1;
            MeasurementOutcome outcome =
                    OutputReader.read(m, round.reads().get(m.node()).get(index));
            firstRead.put(m.name(), outcome);
            keep(m, outcome, results, raw, errors);
        }
        Optional<Sample> settled = judgeGates(attempt, gates, results, raw, errors);
        if (settled.isPresent()) {
            loads.stopUnusedServers(labId, round.early());
            return new Gated(settled, LoadRunner.EarlyServers.NONE);
        }
        return new Gated(settled, round.early());
    }

    /** The gates judged on the first read: the sample's answer when one fails (its loads skipped), else empty. */
    private Optional<Sample> judgeGates(
            Attempt attempt,
            List<Assertion> gates,
            Map<String, Object> results,
            Map<String, String> raw,
            Map<String, String> errors) {
        String labId = attempt.check().labId();
        CheckSpec spec = attempt.check().spec();
        Map<String, Measure> recorded = baselines.all(labId);
        Optional<AssertionResult> failing = Evaluator.evaluate(gates, new Values(results, recorded, errors)).stream()
                .filter(a -> !a.passed())
                .findFirst();
        if (failing.isEmpty()) {
            return Optional.empty();
        }
        List<Measurement> skippable = CheapFirst.skippable(spec);
        List<String> skipped = skippable.stream().map(Measurement::name).toList();
        for (String name : skipped) {
            results.put(name, Map.of());
            raw.put(name, "");
            errors.put(name, Values.SKIPPED);
        }
        Values values = new Values(results, recorded, errors);
        String why = failing.get().message() + " (" + CheapFirst.inWords(skippable) + " not measured until this holds)";
        return Optional.of(new Sample(
                values,
                raw,
                Evaluator.evaluate(spec.expect(), values, attempt.subjects()),
                false,
                null,
                why,
                "",
                List.of()));
    }

    /** The load a sample reaches first: neither during nor over another measurement, in the check's order. */
    private static Optional<Iperf3Measurement> firstLoad(CheckSpec spec) {
        return spec.measurements().stream()
                .filter(m -> m instanceof Iperf3Measurement && m.during() == null && m.over() == null)
                .map(Iperf3Measurement.class::cast)
                .findFirst();
    }

    /**
     * The measurements listed right after a single-flow load that read its client's node and are neither loads nor
     * during or over one, nor read already: the check reads them after the load, so they can run in its exec.
     */
    private static List<Measurement> readsRightAfter(CheckSpec spec, Measurement load, Set<String> alreadyRead) {
        if (!(load instanceof Iperf3Measurement iperf) || iperf.flows().size() != 1) {
            return List.of();
        }
        String node = iperf.flows().get(0).node();
        List<Measurement> all = spec.measurements();
        List<Measurement> reads = new ArrayList<>();
        for (Measurement next : all.subList(all.indexOf(load) + 1, all.size())) {
            if (next.load()
                    || next.during() != null
                    || next.over() != null
                    || !next.node().equals(node)
                    || alreadyRead.contains(next.name())) {
                break;
            }
            reads.add(next);
        }
        return reads;
    }

    /**
     * Runs one measurement: a read in its own exec (after the setup's prelude), a load in the measurement slots it
     * takes, through the {@link LoadRunner}.
     */
    private MeasurementOutcome measure(Attempt attempt, Measurement m, LoadRunner.Setup setup)
            throws EngineUnavailableException, NodeNotFoundException, InterruptedException {
        CheckContext check = attempt.check();
        if (!m.load()) {
            setup.prelude().run();
            return execute(check.labId(), m);
        }
        MeasurementCost byRate = MeasurementCost.of(check.spec(), m, slots.slotBitsPerSecond());
        MeasurementCost cost = runtime.runsOwnKernel(check.labId()) ? byRate.inOwnKernel() : byRate;
        Consumer<MeasurementSlots.SlotWait> onWait = wait ->
                attempt.report(CheckProgress.Stage.WAITING_FOR_SLOT, "waiting for a measurement slot: " + wait.text());
        MeasurementOutcome outcome;
        try (MeasurementSlots.Slot held = slots.acquireFor(check.learner(), m.slots(), cost, onWait);
                CpuPriority raised = runtime.raiseCpuPriority(check.labId())) {
            attempt.report(CheckProgress.Stage.MEASURING, "measuring " + m.name());
            outcome = loads.run(check.labId(), (Iperf3Measurement) m, cost, setup, attempt.routes()::add);
        }
        if (outcome.values().get("bits_per_second") instanceof Measure goodput && cost.reachedBy(goodput.base())) {
            attempt.reachedCap().put(m.name(), cost);
        }
        return outcome;
    }

    /** 1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, ..., 21st. */
    static String ordinal(int n) {
        int lastTwo = n % 100;
        String suffix = lastTwo >= 11 && lastTwo <= 13
                ? "th"
                : switch (n % 10) {
                    case 1 -> "st";
                    case 2 -> "nd";
                    case 3 -> "rd";
                    default -> "th";
                };
        return n + suffix;
    }

    /**
     * Runs a measurement that is not a load in its own exec (loads run through the {@link LoadRunner}); a ping between
     * reads of the echo replies its target's node sent ({@link LinkProof#read}).
     */
    private MeasurementOutcome execute(String labId, Measurement m)
            throws EngineUnavailableException, NodeNotFoundException, InterruptedException {
        Optional<String> farEnd = linkProof.echoesOf(labId, m);
        List<ExecResult> before =
                farEnd.isPresent() ? runtime.execAll(labId, farEnd.get(), List.of(LinkProof.ECHOES)) : List.of();
        List<ExecResult> ran = runtime.execAll(labId, m.node(), linkProof.stepsOf(labId, m));
        List<ExecResult> after =
                farEnd.isPresent() ? runtime.execAll(labId, farEnd.get(), List.of(LinkProof.ECHOES)) : List.of();
        return linkProof.read(labId, m, ran, before, after);
    }

    /** The counters read after a load, with their deltas and rates against those read before it. */
    private static MeasurementOutcome overLoad(MeasurementOutcome before, MeasurementOutcome after, int seconds) {
        if (before.error() != null) {
            return new MeasurementOutcome(Map.of(), before.raw(), "before the load: " + before.error());
        }
        if (after.error() != null) {
            return after;
        }
        return new MeasurementOutcome(Counters.over(before.values(), after.values(), seconds), after.raw(), null);
    }

    private static void keep(
            Measurement m,
            MeasurementOutcome outcome,
            Map<String, Object> results,
            Map<String, String> raw,
            Map<String, String> errors) {
        results.put(m.name(), outcome.values());
        raw.put(m.name(), outcome.raw());
        if (outcome.error() != null) {
            errors.put(m.name(), outcome.error());
        }
    }

    private String recordBaselines(String labId, CheckSpec spec, Values values) {
        StringBuilder note = new StringBuilder();
        spec.record().forEach((name, path) -> {
            Optional<Object> value = values.get(path);
            if (value.isPresent() && value.get() instanceof Measure measure) {
                baselines.record(labId, name, measure);
            } else {
                note.append(" Could not record ")
                        .append(name)
                        .append(": no number at ")
                        .append(path)
                        .append('.');
            }
        });
        return note.toString();
    }

    private static String passMessage(CheckSpec spec) {
        return spec.stable() > 1 ? "Passed: held for " + spec.stable() + " consecutive samples." : "Passed.";
    }

    private static String failMessage(Sample sample) {
        Map<String, String> errors = errorsOf(sample.values());
        if (!errors.isEmpty()) {
            Map.Entry<String, String> first = errors.entrySet().iterator().next();
            return "Measurement '" + first.getKey() + "' failed: " + first.getValue();
        }
        return sample.assertions().stream()
                .filter(a -> !a.passed())
                .map(a -> a.message()
                        + FlowMisses.of(a)
                                .map(miss -> (a.message().endsWith(".") ? " " : ". ") + miss.sentence())
                                .orElse(""))
                .findFirst()
                .orElse("The expectation does not hold.");
    }

    private static CheckResult done(
            CheckContext check, CheckResult.Status status, int attempts, Sample sample, String message, Instant start) {
        check.report(CheckProgress.Stage.DONE, attempts, status.name().toLowerCase());
        CheckSpec spec = check.spec();
        boolean measured = sample != null && sample.values() != null;
        return new CheckResult(
                check.checkId(),
                spec.title(),
                status,
                attempts,
                sample == null ? List.of() : sample.assertions(),
                measured ? sample.values().results() : Map.of(),
                sample == null ? Map.of() : sample.raw(),
                measured ? errorsOf(sample.values()) : Map.of(),
                message,
                Duration.between(start, Instant.now()),
                spec.hint(),
                sample == null ? List.of() : sample.routes());
    }

    private static Map<String, String> errorsOf(Values values) {
        Map<String, String> errors = new LinkedHashMap<>();
        values.results().keySet().forEach(n -> values.error(n).ifPresent(e -> errors.put(n, e)));
        return errors;
    }

    @PreDestroy
    void shutDownLoadThreads() {
        loads.shutDownThreads();
    }
}
