package dev.tclab.grading;

import dev.tclab.config.TclabConfig;
import dev.tclab.lab.runtime.CommandSequence;
import dev.tclab.common.WorkerThreads;
import dev.tclab.lab.runtime.EngineUnavailableException;
import dev.tclab.lab.runtime.ExecResult;
import dev.tclab.lab.runtime.LabRuntime;
import dev.tclab.lab.runtime.NodeNotFoundException;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * Runs a check against a lab: takes samples (each runs every measurement, loads concurrently with what runs
 * {@code during} them), evaluates the expectations, retries, requires a stable window, and records baselines.
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
    private final Duration earlyServerGrace;
    private final boolean fastPaths;
    private final LinkProof linkProof;
    private final ExecutorService loads = Executors.newCachedThreadPool(WorkerThreads.named("tclab-check-load"));
    private final ReentrantLock severalSlots = new ReentrantLock();

    @Inject
    public CheckRunner(LabRuntime runtime, BaselineStore baselines, MeasurementSlots slots, LinkProof linkProof,
                       TclabConfig config) {
        this(runtime, baselines, slots, LOAD_LEAD, EARLY_SERVER_GRACE, config.grading().fastPaths(), linkProof);
    }

    CheckRunner(LabRuntime runtime, BaselineStore baselines, MeasurementSlots slots, Duration loadLead) {
        this(runtime, baselines, slots, loadLead, EARLY_SERVER_GRACE, true);
    }

    /** Without a lab.yml to prove flows against (the unit tests' scripted labs have none). */
    CheckRunner(LabRuntime runtime, BaselineStore baselines, MeasurementSlots slots, Duration loadLead,
                Duration earlyServerGrace, boolean fastPaths) {
        this(runtime, baselines, slots, loadLead, earlyServerGrace, fastPaths, new LinkProof(labId -> Optional.empty()));
    }

    private CheckRunner(LabRuntime runtime, BaselineStore baselines, MeasurementSlots slots, Duration loadLead,
                        Duration earlyServerGrace, boolean fastPaths, LinkProof linkProof) {
        this.runtime = runtime;
        this.baselines = baselines;
        this.slots = slots;
        this.loadLead = loadLead;
        this.earlyServerGrace = earlyServerGrace;
        this.fastPaths = fastPaths;
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
    private record Sample(Values values, Map<String, String> raw, List<AssertionResult> assertions, boolean passed,
                          String platformError, String settled, String note) {

        Sample(Values values, Map<String, String> raw, List<AssertionResult> assertions, boolean passed,
               String platformError) {
            this(values, raw, assertions, passed, platformError, null, "");
        }
    }

    /**
     * Runs {@code spec} in the lab. {@code checkId} names the check in progress events and the result (the spec's
     * id or the lesson's {@code <step>-check-<n>}). A check comparing with a baseline this lab has not recorded
     * ends at once in ERROR, saying which step records it ({@code baselineSteps}): no sample could pass.
     */
    public CheckResult run(String labId, String checkId, CheckSpec spec, BaselineSteps baselineSteps,
                           Consumer<CheckProgress> progress) {
        // No learner behind it (a lesson self-test): the lab takes its turn for measurement slots as its own learner.
        return run(labId, labId, checkId, spec, baselineSteps, progress);
    }

    /** As {@link #run(String, String, CheckSpec, BaselineSteps, Consumer)}, for {@code learner}'s lab. */
    public CheckResult run(String learner, String labId, String checkId, CheckSpec spec, BaselineSteps baselineSteps,
                           Consumer<CheckProgress> progress) {
        return run(learner, labId, checkId, spec, baselineSteps, progress, fastPaths);
    }

    /**
     * As {@link #run(String, String, String, CheckSpec, BaselineSteps, Consumer)}, on the fast paths or the plain way
     * whatever the configuration says ({@code tclab.grading.fast-paths}): the semantics corpus runs both and compares.
     */
    public CheckResult run(String learner, String labId, String checkId, CheckSpec spec, BaselineSteps baselineSteps,
                           Consumer<CheckProgress> progress, boolean fast) {
        Instant start = Instant.now();
        Set<String> missing = missingBaselines(labId, spec);
        if (!missing.isEmpty()) {
            return done(checkId, spec, CheckResult.Status.ERROR, 0, null, baselineSteps.explainMissing(missing), start,
                    progress);
        }
        Instant deadline = start.plus(spec.timeout());
        int consecutive = 0;
        int failures = 0;
        int attempt = 0;
        while (true) {
            attempt++;
            progress.accept(new CheckProgress(checkId, CheckProgress.Stage.MEASURING, attempt, "measuring"));
            Sample sample;
            try {
                sample = sample(learner, labId, checkId, spec, progress, attempt, fast);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return done(checkId, spec, CheckResult.Status.ERROR, attempt, null, "The check was interrupted.", start, progress);
            }
            if (sample.platformError() != null) {
                return done(checkId, spec, CheckResult.Status.ERROR, attempt, sample, sample.platformError(), start, progress);
            }
            if (sample.settled() != null) {
                return done(checkId, spec, CheckResult.Status.FAILED, attempt, sample, sample.settled(), start, progress);
            }
            if (sample.passed()) {
                consecutive++;
                if (consecutive >= spec.stable()) {
                    String note = recordBaselines(labId, spec, sample.values());
                    return done(checkId, spec, CheckResult.Status.PASSED, attempt, sample, passMessage(spec) + note, start, progress);
                }
            } else {
                consecutive = 0;
                failures++;
                if (failures > spec.retries()) {
                    return done(checkId, spec, CheckResult.Status.FAILED, attempt, sample, failMessage(sample) + sample.note(),
                            start, progress);
                }
            }
            if (Instant.now().plus(spec.interval()).isAfter(deadline)) {
                String why = sample.passed()
                        ? "It held for " + consecutive + " of the " + spec.stable() + " consecutive samples needed before the "
                                + spec.timeout().toSeconds() + " s timeout."
                        : failMessage(sample) + " (gave up after the " + spec.timeout().toSeconds() + " s timeout)";
                return done(checkId, spec, CheckResult.Status.FAILED, attempt, sample, why, start, progress);
            }
            progress.accept(new CheckProgress(checkId, CheckProgress.Stage.WAITING, attempt,
                    sample.passed() ? "holds; sampling again (" + consecutive + "/" + spec.stable() + ")" : "does not hold yet; retrying"));
            try {
                Thread.sleep(spec.interval().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return done(checkId, spec, CheckResult.Status.ERROR, attempt, sample, "The check was interrupted.", start, progress);
            }
        }
    }

    private Set<String> missingBaselines(String labId, CheckSpec spec) {
        Set<String> missing = new TreeSet<>(spec.baselinesUsed());
        missing.removeAll(baselines.all(labId).keySet());
        return missing;
    }

    /**
     * One sample. The {@code fast} way reads the check's gates first (see {@link CheapFirst}) and runs the reads listed
     * right after a single-flow load in its client's exec; the plain way runs every measurement on its own, in order.
     */
    private Sample sample(String learner, String labId, String checkId, CheckSpec spec, Consumer<CheckProgress> progress,
                          int attempt, boolean fast)
            throws InterruptedException {
        Map<String, Object> results = new LinkedHashMap<>();
        Map<String, String> raw = new LinkedHashMap<>();
        Map<String, String> errors = new LinkedHashMap<>();
        Map<String, MeasurementOutcome> firstRead = new LinkedHashMap<>();
        Map<String, MeasurementCost> reachedCap = new ConcurrentHashMap<>();
        Map<String, MeasurementOutcome> readAfterLoad = new ConcurrentHashMap<>();
        EarlyServers early = EarlyServers.NONE;
        try {
            List<Assertion> gates = fast ? CheapFirst.gates(spec) : List.of();
            if (!gates.isEmpty()) {
                Gated gated = readGatesWhileServersStart(labId, spec, gates, firstRead);
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
                    AfterLoad after = fast ? new AfterLoad(readsRightAfter(spec, m, firstRead.keySet()), readAfterLoad)
                            : AfterLoad.NONE;
                    keep(m, read != null ? read : measure(learner, labId, checkId, spec, m, progress, attempt,
                            NOTHING_BEFORE, reachedCap, after, early), results, raw, errors);
                    continue;
                }
                // Counters are read just before the load's clients start (its slots held, its servers listening), so
                // neither a wait nor a server start falls inside the window; what runs during the load starts a lead
                // after that, so it sees the load, however long the load waited for its slots and servers.
                Map<Measurement, MeasurementOutcome> before = new ConcurrentHashMap<>();
                CountDownLatch starting = new CountDownLatch(1);
                Prelude readBefore = () -> {
                    for (Measurement c : around) {
                        before.put(c, execute(labId, c));
                    }
                    starting.countDown();
                };
                EarlyServers servers = early;
                Future<MeasurementOutcome> load = loads.submit(() -> {
                    try {
                        return measure(learner, labId, checkId, spec, m, progress, attempt, readBefore, reachedCap,
                                AfterLoad.NONE, servers);
                    } finally {
                        starting.countDown();
                    }
                });
                starting.await();
                Thread.sleep(loadLead.toMillis());
                for (Measurement d : dependents) {
                    keep(d, measure(learner, labId, checkId, spec, d, progress, attempt, NOTHING_BEFORE, reachedCap,
                            AfterLoad.NONE, EarlyServers.NONE), results, raw, errors);
                }
                keep(m, join(load), results, raw, errors);
                for (Measurement c : around) {
                    keep(c, overLoad(before.get(c), execute(labId, c), ((Iperf3Measurement) m).seconds()), results,
                            raw, errors);
                }
            }
        } catch (EngineUnavailableException e) {
            return new Sample(null, raw, List.of(), false, "The lab cannot be reached: " + e.getMessage());
        } catch (NodeNotFoundException e) {
            return new Sample(null, raw, List.of(), false, "The lab is not running (" + e.getMessage() + "). Start it again.");
        }
        Values values = new Values(results, baselines.all(labId), errors);
        List<AssertionResult> assertions = Evaluator.evaluate(spec.expect(), values, Subjects.of(spec));
        boolean passed = errors.isEmpty() && assertions.stream().allMatch(AssertionResult::passed);
        String note = reachedCap.entrySet().stream().map(e -> " (the platform capped " + e.getKey() + " at "
                + e.getValue().capText() + ", twice what this check accepts, and it ran that fast: the link may be faster)")
                .reduce("", String::concat);
        return new Sample(values, raw, assertions, passed, null, null, note);
    }

    /** What the gate read settled (the sample's answer), or else the servers started for the first load meanwhile. */
    private record Gated(Optional<Sample> settled, EarlyServers early) {
    }

    /**
     * Reads the gates' cheap measurements while the servers of the check's first load start, in one round of execs
     * ({@link IperfServer#startAll}: one exec per node): a passing check then waits for one round of execs less
     * (under a class's load each round costs 0.5-2 s of exec starts). When a gate fails, the loads could not make the
     * check pass: the sample ends there, its skipped measurements saying so, and the servers are stopped before the
     * answer, so pressing Check in a loop never piles them up in a sidecar with its small process limit. Otherwise
     * the reads are left in {@code firstRead} and the full sample follows.
     */
    private Gated readGatesWhileServersStart(String labId, CheckSpec spec, List<Assertion> gates,
                                             Map<String, MeasurementOutcome> firstRead)
            throws EngineUnavailableException, NodeNotFoundException, InterruptedException {
        Optional<Iperf3Measurement> load = firstLoad(spec);
        Instant started = Instant.now();
        List<Measurement> cheap = CheapFirst.cheap(spec);
        Map<String, List<CommandSequence.Step>> readsByNode = new LinkedHashMap<>();
        cheap.forEach(m -> readsByNode.computeIfAbsent(m.node(), n -> new ArrayList<>())
                .add(new CommandSequence.Step(m.argv(), m.timeout())));
        IperfServer.Round round = IperfServer.startAll(runtime, labId, load.map(CheckRunner::serverRequests)
                .orElse(List.of()), load.map(l -> l.timeout().plus(earlyServerGrace)).orElse(Duration.ZERO),
                readsByNode, loads);
        Map<String, Integer> nextOfNode = new LinkedHashMap<>();
        Map<String, Object> results = new LinkedHashMap<>();
        Map<String, String> raw = new LinkedHashMap<>();
        Map<String, String> errors = new LinkedHashMap<>();
        for (Measurement m : cheap) {
            int index = nextOfNode.merge(m.node(), 1, Integer::sum) - 1;
            MeasurementOutcome outcome = OutputReader.read(m, round.reads().get(m.node()).get(index));
            firstRead.put(m.name(), outcome);
            keep(m, outcome, results, raw, errors);
        }
        Optional<Sample> settled = judgeGates(labId, spec, gates, results, raw, errors);
        if (load.isEmpty()) {
            return new Gated(settled, EarlyServers.NONE);
        }
        if (settled.isPresent()) {
            stop(labId, round.servers().values());
            return new Gated(settled, EarlyServers.NONE);
        }
        return new Gated(settled, new EarlyServers(load.get(), round.servers(), started.plus(earlyServerGrace)));
    }

    /** The gates judged on the first read: the sample's answer when one fails (its loads skipped), else empty. */
    private Optional<Sample> judgeGates(String labId, CheckSpec spec, List<Assertion> gates, Map<String, Object> results,
                                        Map<String, String> raw, Map<String, String> errors) {
        Map<String, Measure> recorded = baselines.all(labId);
        Optional<AssertionResult> failing = Evaluator.evaluate(gates, new Values(results, recorded, errors)).stream()
                .filter(a -> !a.passed()).findFirst();
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
        return Optional.of(new Sample(values, raw, Evaluator.evaluate(spec.expect(), values, Subjects.of(spec)), false, null,
                why, ""));
    }

    /** The outcome of an engine call run on another thread, with the engine's and the lab's failures as they were. */
    static <T> T join(Future<T> call) throws InterruptedException, EngineUnavailableException, NodeNotFoundException {
        try {
            return call.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof EngineUnavailableException engine) {
                throw engine;
            }
            if (e.getCause() instanceof NodeNotFoundException node) {
                throw node;
            }
            throw new IllegalStateException("a measurement failed unexpectedly", e.getCause());
        }
    }

    /** What runs right before a load's clients start, once its servers listen: reading counters {@code over} it. */
    @FunctionalInterface
    private interface Prelude {
        void run() throws EngineUnavailableException, NodeNotFoundException, InterruptedException;
    }

    private static final Prelude NOTHING_BEFORE = () -> { };

    /**
     * Cheap reads that run right after a load, in the load's own exec ({@link LabRuntime#execAll}), their outcomes
     * put in {@code outcomes} by name: a check then costs the engine one exec less and waits one exec less.
     */
    private record AfterLoad(List<Measurement> reads, Map<String, MeasurementOutcome> outcomes) {
        static final AfterLoad NONE = new AfterLoad(List.of(), Map.of());
    }

    /** The load a sample reaches first: neither during nor over another measurement, in the check's order. */
    private static Optional<Iperf3Measurement> firstLoad(CheckSpec spec) {
        return spec.measurements().stream()
                .filter(m -> m instanceof Iperf3Measurement && m.during() == null && m.over() == null)
                .map(Iperf3Measurement.class::cast).findFirst();
    }

    /**
     * Servers started for a check's first {@code load} alongside its gate read: they serve the load when its client
     * starts {@code before} (the start plus {@link #EARLY_SERVER_GRACE}), and are stopped when the gate fails.
     */
    private record EarlyServers(Iperf3Measurement load, Map<String, IperfServer.Started> servers, Instant before) {
        static final EarlyServers NONE = new EarlyServers(null, Map.of(), Instant.MIN);

        boolean forLoad(Measurement m) {
            return m.equals(load);
        }

        boolean fresh() {
            return Instant.now().isBefore(before);
        }
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
            if (next.load() || next.during() != null || next.over() != null || !next.node().equals(node)
                    || alreadyRead.contains(next.name())) {
                break;
            }
            reads.add(next);
        }
        return reads;
    }

    private MeasurementOutcome measure(String learner, String labId, String checkId, CheckSpec spec, Measurement m,
                                       Consumer<CheckProgress> progress, int attempt, Prelude prelude,
                                       Map<String, MeasurementCost> reachedCap, AfterLoad after, EarlyServers early)
            throws EngineUnavailableException, NodeNotFoundException, InterruptedException {
        if (!m.load()) {
            prelude.run();
            return execute(labId, m);
        }
        MeasurementCost cost = MeasurementCost.of(spec, m, slots.slotBitsPerSecond());
        IntConsumer onWait = place -> progress.accept(new CheckProgress(checkId,
                CheckProgress.Stage.WAITING_FOR_SLOT, attempt, "waiting for a measurement slot: " + ordinal(place)
                + " in line"));
        // Several flows take a whole slot each; a single flow takes what it costs.
        List<MeasurementSlots.Slot> held = m.slots() > 1 ? acquire(learner, m.slots(), onWait)
                : List.of(slots.acquire(learner, cost, onWait));
        MeasurementOutcome outcome;
        try {
            progress.accept(new CheckProgress(checkId, CheckProgress.Stage.MEASURING, attempt, "measuring " + m.name()));
            outcome = flows(labId, (Iperf3Measurement) m, cost, after, early, prelude);
        } finally {
            held.forEach(MeasurementSlots.Slot::close);
        }
        if (outcome.values().get("bits_per_second") instanceof Measure goodput && cost.reachedBy(goodput.base())) {
            reachedCap.put(m.name(), cost);
        }
        return outcome;
    }

    /**
     * Takes {@code count} whole slots (at most all there are). Callers taking several take them one after another
     * under a lock, so two of them never hold part of what each needs while waiting for the rest.
     */
    private List<MeasurementSlots.Slot> acquire(String learner, int count, IntConsumer onWait)
            throws InterruptedException {
        int wanted = Math.max(1, Math.min(count, slots.size()));
        List<MeasurementSlots.Slot> held = new ArrayList<>();
        if (wanted > 1) {
            severalSlots.lockInterruptibly();
        }
        try {
            while (held.size() < wanted) {
                held.add(slots.acquire(learner, onWait));
            }
            return held;
        } catch (InterruptedException | RuntimeException e) {
            held.forEach(MeasurementSlots.Slot::close);
            throw e;
        } finally {
            if (wanted > 1) {
                severalSlots.unlock();
            }
        }
    }

    /** 1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, ..., 21st. */
    static String ordinal(int n) {
        int lastTwo = n % 100;
        String suffix = lastTwo >= 11 && lastTwo <= 13 ? "th" : switch (n % 10) {
            case 1 -> "st";
            case 2 -> "nd";
            case 3 -> "rd";
            default -> "th";
        };
        return n + suffix;
    }

    /** Runs a measurement that is not a load in its own exec (loads run through {@link #flows}). */
    private MeasurementOutcome execute(String labId, Measurement m)
            throws EngineUnavailableException, NodeNotFoundException, InterruptedException {
        return OutputReader.read(m, runtime.exec(labId, m.node(), m.argv(), m.timeout()));
    }

    /**
     * Runs a flow's client against each flow's one-off server (each on its own port) at once, and combines their
     * results: the servers started {@code early} for this load when they are still fresh, else servers started now.
     * A flow whose server cannot start fails with the reason; the others still run. {@code cost} caps a single flow's
     * rate when the check allows it (see {@link MeasurementCost}). The reads {@code after} a single flow run in its
     * client's exec, right after it. {@code prelude} runs once the servers listen, right before the clients start.
     */
    private MeasurementOutcome flows(String labId, Iperf3Measurement m, MeasurementCost cost, AfterLoad after,
                                     EarlyServers early, Prelude prelude)
            throws EngineUnavailableException, NodeNotFoundException, InterruptedException {
        Map<String, IperfServer.Started> servers;
        if (early.forLoad(m)) {
            if (early.fresh()) {
                servers = early.servers();
            } else {
                // The load waited long for its slots: its early servers may end before it ends, so it gets new ones.
                // The early ones are stopped first: a flow's fixed port must be free again for its new server.
                stop(labId, early.servers().values());
                servers = startServers(labId, m, m.timeout());
            }
        } else {
            servers = startServers(labId, m, m.timeout());
        }
        prelude.run();
        Map<String, Future<MeasurementOutcome>> running = new LinkedHashMap<>();
        Map<String, MeasurementOutcome> outcomes = new LinkedHashMap<>();
        for (Iperf3Measurement.Flow flow : m.flows()) {
            IperfServer.Started server = servers.get(flow.name());
            if (server.error() != null) {
                outcomes.put(flow.name(), new MeasurementOutcome(Map.of(), "", server.error()));
                continue;
            }
            LinkProof.Guard guard = linkProof.guard(labId, flow, server.node());
            if (guard.refusal() != null) {
                outcomes.put(flow.name(), new MeasurementOutcome(Map.of(), "", guard.refusal()));
                continue;
            }
            // The flow, between the reads of its client's link counters when it is proven by them (LinkProof).
            List<CommandSequence.Step> steps = new ArrayList<>(guard.around(
                    new CommandSequence.Step(cost.applyTo(flow.argv(m.seconds(), server.port())), m.timeout())));
            int guarded = steps.size();
            after.reads().forEach(r -> steps.add(new CommandSequence.Step(r.argv(), r.timeout())));
            running.put(flow.name(), loads.submit(() -> {
                List<ExecResult> ran = runtime.execAll(labId, flow.node(), steps);
                for (int i = 0; i < after.reads().size(); i++) {
                    Measurement read = after.reads().get(i);
                    after.outcomes().put(read.name(), OutputReader.read(read, ran.get(i + guarded)));
                }
                List<ExecResult> around = ran.subList(0, guarded);
                return guard.judge(around, OutputReader.read(m, around.get(guard.loadIndex())));
            }));
        }
        for (Map.Entry<String, Future<MeasurementOutcome>> e : running.entrySet()) {
            outcomes.put(e.getKey(), join(e.getValue()));
        }
        Map<String, MeasurementOutcome> inOrder = new LinkedHashMap<>();
        m.flows().forEach(f -> inOrder.put(f.name(), outcomes.get(f.name())));
        return m.combine(inOrder);
    }

    /** Starts a one-off server for each flow of {@code m}, each on its own port, living at most {@code lifetime}. */
    private Map<String, IperfServer.Started> startServers(String labId, Iperf3Measurement m, Duration lifetime)
            throws EngineUnavailableException, NodeNotFoundException, InterruptedException {
        return IperfServer.startAll(runtime, labId, serverRequests(m), lifetime, Map.of(), loads).servers();
    }

    /** A server for each flow of {@code m}: on the flow's own port, or else on one picked at random for it. */
    private static List<IperfServer.Request> serverRequests(Iperf3Measurement m) {
        Set<Integer> ports = new HashSet<>();
        m.flows().stream().map(Iperf3Measurement.Flow::port).filter(Objects::nonNull).forEach(ports::add);
        List<IperfServer.Request> requests = new ArrayList<>();
        for (Iperf3Measurement.Flow flow : m.flows()) {
            requests.add(new IperfServer.Request(flow.name(), flow.server(),
                    flow.port() != null ? flow.port() : freePort(ports)));
        }
        return requests;
    }

    /**
     * Stops servers started early that no client will use. One that cannot be stopped (the lab or the engine is
     * going away) ends by its own lifetime: the check's answer does not change for it.
     */
    private void stop(String labId, Collection<IperfServer.Started> servers) throws InterruptedException {
        for (IperfServer.Started server : servers) {
            try {
                IperfServer.stop(runtime, labId, server);
            } catch (EngineUnavailableException | NodeNotFoundException e) {
                // See above: bounded by its lifetime, and whatever the check does next meets the same failure.
            }
        }
    }

    private static int freePort(Set<Integer> taken) {
        int port;
        do {
            port = IperfServer.randomPort();
        } while (!taken.add(port));
        return port;
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

    private static void keep(Measurement m, MeasurementOutcome outcome, Map<String, Object> results,
                             Map<String, String> raw, Map<String, String> errors) {
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
                note.append(" Could not record ").append(name).append(": no number at ").append(path).append('.');
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
        return sample.assertions().stream().filter(a -> !a.passed()).map(AssertionResult::message).findFirst()
                .orElse("The expectation does not hold.");
    }

    private static CheckResult done(String checkId, CheckSpec spec, CheckResult.Status status, int attempts,
                                    Sample sample, String message, Instant start, Consumer<CheckProgress> progress) {
        progress.accept(new CheckProgress(checkId, CheckProgress.Stage.DONE, attempts, status.name().toLowerCase()));
        boolean measured = sample != null && sample.values() != null;
        return new CheckResult(checkId, spec.title(), status, attempts,
                sample == null ? List.of() : sample.assertions(),
                measured ? sample.values().results() : Map.of(),
                sample == null ? Map.of() : sample.raw(),
                measured ? errorsOf(sample.values()) : Map.of(),
                message, Duration.between(start, Instant.now()), spec.hint());
    }

    private static Map<String, String> errorsOf(Values values) {
        Map<String, String> errors = new LinkedHashMap<>();
        values.results().keySet().forEach(n -> values.error(n).ifPresent(e -> errors.put(n, e)));
        return errors;
    }

    @PreDestroy
    void stop() {
        loads.shutdownNow();
    }
}
