package dev.tclab.grading.run;

import dev.tclab.common.WorkerThreads;
import dev.tclab.grading.evaluate.FlowRoute;
import dev.tclab.grading.spec.Iperf3Measurement;
import dev.tclab.grading.spec.Measurement;
import dev.tclab.grading.spec.MeasurementOutcome;
import dev.tclab.grading.spec.OutputReader;
import dev.tclab.runtime.CommandSequence;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.runtime.NodeNotFoundException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * Runs a check's loads (iperf3 flows) in a lab: owns their one-off servers, those started early alongside a check's
 * gate read, and the threads loads and their flows run on. The caller holds the load's measurement slots.
 */
final class LoadRunner {

    private final LabRuntime runtime;
    private final LinkProof linkProof;
    private final Duration earlyServerGrace;
    private final ExecutorService threads = Executors.newCachedThreadPool(WorkerThreads.named("tclab-check-load"));

    /**
     * @param earlyServerGrace how long servers started early wait for their load's client beyond the load's own
     *                         timeout (see {@link CheckRunner#EARLY_SERVER_GRACE})
     */
    LoadRunner(LabRuntime runtime, LinkProof linkProof, Duration earlyServerGrace) {
        this.runtime = runtime;
        this.linkProof = linkProof;
        this.earlyServerGrace = earlyServerGrace;
    }

    /** What runs right before a load's clients start, once its servers listen: reading counters {@code over} it. */
    @FunctionalInterface
    interface Prelude {
        Prelude NOTHING = () -> {};

        void run() throws EngineUnavailableException, NodeNotFoundException, InterruptedException;
    }

    /**
     * Cheap reads that run right after a load, in the load's own exec ({@link LabRuntime#execAll}), their outcomes
     * put in {@code outcomes} by name: a check then costs the engine one exec less and waits one exec less.
     */
    record AfterLoad(List<Measurement> reads, Map<String, MeasurementOutcome> outcomes) {
        static final AfterLoad NONE = new AfterLoad(List.of(), Map.of());
    }

    /**
     * Servers started for a check's first {@code load} alongside its gate read: they serve the load when its client
     * starts {@code before} (the start plus the early servers' grace), and are stopped when the gate fails.
     */
    record EarlyServers(Iperf3Measurement load, Map<String, IperfServer.Started> servers, Instant before) {
        static final EarlyServers NONE = new EarlyServers(null, Map.of(), Instant.MIN);

        boolean forLoad(Measurement m) {
            return m.equals(load);
        }

        boolean fresh() {
            return Instant.now().isBefore(before);
        }
    }

    /** How a load runs: what runs right before its clients, the reads right after it, the servers started for it. */
    record Setup(Prelude prelude, AfterLoad after, EarlyServers early) {
        static final Setup PLAIN = new Setup(Prelude.NOTHING, AfterLoad.NONE, EarlyServers.NONE);
    }

    /** What a gate read gave along with the early servers of the check's first load (none when it has no load). */
    record GateRound(Map<String, List<ExecResult>> reads, EarlyServers early) {}

    /**
     * Runs {@code readsByNode} while the servers of {@code load} (the check's first, if any) start, in one round of
     * execs ({@link IperfServer#startAll}: one exec per node).
     */
    GateRound readWhileServersStart(
            String labId, Iperf3Measurement load, Map<String, List<CommandSequence.Step>> readsByNode)
            throws EngineUnavailableException, NodeNotFoundException, InterruptedException {
        Instant started = Instant.now();
        IperfServer.Round round = IperfServer.startAll(
                runtime,
                labId,
                load == null ? List.of() : serverRequests(load),
                load == null ? Duration.ZERO : load.timeout().plus(earlyServerGrace),
                readsByNode,
                threads);
        EarlyServers early = load == null
                ? EarlyServers.NONE
                : new EarlyServers(load, round.servers(), started.plus(earlyServerGrace));
        return new GateRound(round.reads(), early);
    }

    /** Runs {@code call} on a load thread (a load while what runs during it is measured, a flow of several). */
    <T> Future<T> inBackground(Callable<T> call) {
        return threads.submit(call);
    }

    /**
     * Runs a flow's client against each flow's one-off server (each on its own port) at once, and combines their
     * results: the servers started early for this load when they are still fresh, else servers started now.
     * A flow whose server cannot start fails with the reason; the others still run. {@code cost} caps a single flow's
     * rate when the check allows it (see {@link MeasurementCost}). The reads after a single flow run in its client's
     * exec, right after it. The prelude runs once the servers listen, right before the clients start: when it
     * is given, each flow's reads before its client run first, in an exec of their own (see {@link #runHeads}). Where each flow
     * went on its sending node goes to {@code routes} (see {@link FlowTrace}).
     */
    MeasurementOutcome run(
            String labId, Iperf3Measurement m, MeasurementCost cost, Setup setup, Consumer<FlowRoute> routes)
            throws EngineUnavailableException, NodeNotFoundException, InterruptedException {
        Map<String, IperfServer.Started> servers = serversFor(labId, m, setup.early());
        Map<String, LinkProof.Guard> guards = new LinkedHashMap<>();
        Map<String, MeasurementOutcome> outcomes = new LinkedHashMap<>();
        for (Iperf3Measurement.Flow flow : m.flows()) {
            IperfServer.Started server = servers.get(flow.name());
            LinkProof.Guard guard = server.error() == null ? linkProof.guard(labId, flow, server) : null;
            if (server.error() != null) {
                outcomes.put(flow.name(), new MeasurementOutcome(Map.of(), "", server.error()));
            } else if (guard.refusal() != null) {
                outcomes.put(flow.name(), new MeasurementOutcome(Map.of(), "", guard.refusal()));
            } else {
                guards.put(flow.name(), guard);
            }
        }
        // Before the prelude, so that what runs during the load still starts right before its clients.
        Map<String, List<ExecResult>> sendersBefore = readReverseSenders(labId, m, servers);
        Map<String, List<ExecResult>> serverLinksBefore = readServerLinks(labId, guards.values());
        Map<String, ClientSteps> plans = new LinkedHashMap<>();
        for (Iperf3Measurement.Flow flow : m.flows()) {
            LinkProof.Guard guard = guards.get(flow.name());
            if (guard != null) {
                plans.put(flow.name(), ClientSteps.of(flow, guard, cost, m, servers.get(flow.name()), setup.after()));
            }
        }
        boolean awaited = setup.prelude() != Prelude.NOTHING;
        Map<String, List<ExecResult>> headsRan = awaited ? runHeads(labId, m, plans) : Map.of();
        setup.prelude().run();
        AfterLoad after = setup.after();
        Map<String, Future<MeasurementOutcome>> running = new LinkedHashMap<>();
        for (Iperf3Measurement.Flow flow : m.flows()) {
            LinkProof.Guard guard = guards.get(flow.name());
            if (guard == null) {
                continue;
            }
            IperfServer.Started server = servers.get(flow.name());
            ClientSteps plan = plans.get(flow.name());
            List<ExecResult> head = headsRan.getOrDefault(flow.name(), List.of());
            List<CommandSequence.Step> onServer = plan.trace().readsOnServer();
            List<CommandSequence.Step> proofOnServer = guard.onServerAfter();
            List<ExecResult> sentBefore = sendersBefore.getOrDefault(server.node(), List.of());
            List<ExecResult> linksBefore = serverLinksBefore.getOrDefault(server.node(), List.of());
            running.put(flow.name(), threads.submit(() -> {
                List<ExecResult> ran = concat(
                        head,
                        runtime.execAll(
                                labId,
                                flow.node(),
                                plan.steps().subList(head.size(), plan.steps().size())));
                // The server's report is part of the verdict, so its read is not a quiet one; the trace's reads
                // share its exec.
                List<ExecResult> serverReads = proofOnServer.isEmpty()
                        ? readQuietly(labId, server.node(), onServer)
                        : runtime.execAll(labId, server.node(), concat(onServer, proofOnServer));
                List<ExecResult> sentAfter = serverReads.subList(0, Math.min(onServer.size(), serverReads.size()));
                List<ExecResult> proven = serverReads.subList(sentAfter.size(), serverReads.size());
                for (int i = 0; i < after.reads().size(); i++) {
                    Measurement read = after.reads().get(i);
                    after.outcomes().put(read.name(), OutputReader.read(read, ran.get(i + plan.afterTrace())));
                }
                List<ExecResult> around = ran.subList(plan.traced(), plan.guarded());
                ExecResult client = around.get(guard.loadIndex());
                MeasurementOutcome judged = guard.judge(around, linksBefore, proven, OutputReader.read(m, client));
                plan.trace()
                        .route(
                                m.name(),
                                flow,
                                server.node(),
                                server.port(),
                                onServer.isEmpty() ? ran.subList(0, plan.traced()) : sentBefore,
                                onServer.isEmpty() ? ran.subList(plan.guarded(), plan.afterTrace()) : sentAfter,
                                client,
                                judged)
                        .ifPresent(routes);
                return judged;
            }));
        }
        for (Map.Entry<String, Future<MeasurementOutcome>> e : running.entrySet()) {
            outcomes.put(e.getKey(), join(e.getValue()));
        }
        Map<String, MeasurementOutcome> inOrder = new LinkedHashMap<>();
        m.flows().forEach(f -> inOrder.put(f.name(), outcomes.get(f.name())));
        return m.combine(inOrder);
    }

    /**
     * A flow's steps in its client's exec: the trace's reads before the flow, the flow between its link proof's reads
     * (the load at {@code traced + guard.loadIndex()}), the trace's reads after it, then the cheap reads after the load.
     */
    private record ClientSteps(
            FlowTrace trace, List<CommandSequence.Step> steps, int head, int traced, int guarded, int afterTrace) {

        static ClientSteps of(
                Iperf3Measurement.Flow flow,
                LinkProof.Guard guard,
                MeasurementCost cost,
                Iperf3Measurement m,
                IperfServer.Started server,
                AfterLoad after) {
            // The flow, between the reads of its client's link counters when it is proven by them (LinkProof),
            // between the reads of its sender's qdiscs and classes (FlowTrace): in the same exec on its client, in
            // execs of their own on the server's node for a reverse flow.
            FlowTrace trace = FlowTrace.of(flow);
            List<CommandSequence.Step> steps = new ArrayList<>(trace.readsOnClient());
            int traced = steps.size();
            steps.addAll(guard.around(
                    new CommandSequence.Step(cost.applyTo(flow.argv(m.seconds(), server.port())), m.timeout())));
            int guarded = steps.size();
            steps.addAll(trace.readsOnClient());
            int afterTrace = steps.size();
            after.reads().forEach(r -> steps.add(new CommandSequence.Step(r.argv(), r.timeout())));
            return new ClientSteps(trace, List.copyOf(steps), traced + guard.loadIndex(), traced, guarded, afterTrace);
        }

        /** The reads before the flow itself. */
        List<CommandSequence.Step> before() {
            return steps.subList(0, head);
        }
    }

    /**
     * Each flow's reads before its client starts, in an exec of their own on its client, every flow's at once: for a
     * load that something runs during or over, so that the prelude runs right before the clients themselves. In a
     * kernel of its own, each of these reads starts processes at 0.1-0.5 s each under ptrace; in the load's own exec
     * they held its client back for seconds after the prelude, and a ping during the load ran before the load did.
     */
    private Map<String, List<ExecResult>> runHeads(String labId, Iperf3Measurement m, Map<String, ClientSteps> plans)
            throws EngineUnavailableException, NodeNotFoundException, InterruptedException {
        Map<String, Future<List<ExecResult>>> reading = new LinkedHashMap<>();
        for (Iperf3Measurement.Flow flow : m.flows()) {
            ClientSteps plan = plans.get(flow.name());
            if (plan != null && !plan.before().isEmpty()) {
                reading.put(flow.name(), threads.submit(() -> runtime.execAll(labId, flow.node(), plan.before())));
            }
        }
        Map<String, List<ExecResult>> ran = new HashMap<>();
        for (Map.Entry<String, Future<List<ExecResult>>> e : reading.entrySet()) {
            ran.put(e.getKey(), join(e.getValue()));
        }
        return ran;
    }

    /**
     * The trace's read before the load on each server node that sends a reverse flow of {@code m}, by node (FlowTrace):
     * read once per node, before anything of the load starts.
     */
    private Map<String, List<ExecResult>> readReverseSenders(
            String labId, Iperf3Measurement m, Map<String, IperfServer.Started> servers) throws InterruptedException {
        Map<String, List<ExecResult>> byNode = new HashMap<>();
        for (Iperf3Measurement.Flow flow : m.flows()) {
            IperfServer.Started server = servers.get(flow.name());
            List<CommandSequence.Step> reads = FlowTrace.of(flow).readsOnServer();
            if (server.error() == null && !reads.isEmpty() && !byNode.containsKey(server.node())) {
                byNode.put(server.node(), readQuietly(labId, server.node(), reads));
            }
        }
        return byNode;
    }

    /**
     * The link counters of each server node whose flows are proven by them ({@link LinkProof.Guard#onServerBefore}), by
     * node: read once per node, before anything of the load starts, as the flows' bytes are at least what any one of
     * them must account for. A read that cannot run fails the check, as the report's read after the flow does.
     */
    private Map<String, List<ExecResult>> readServerLinks(String labId, Collection<LinkProof.Guard> guards)
            throws EngineUnavailableException, NodeNotFoundException, InterruptedException {
        Map<String, List<ExecResult>> byNode = new HashMap<>();
        for (LinkProof.Guard guard : guards) {
            String node = guard.serverEnd().node();
            if (!guard.onServerBefore().isEmpty() && !byNode.containsKey(node)) {
                byNode.put(node, runtime.execAll(labId, node, guard.onServerBefore()));
            }
        }
        return byNode;
    }

    /**
     * A reverse flow's trace read on its server's node: none when there is nothing to read or the read cannot run, as
     * where a flow went only explains a verdict and never changes one.
     */
    private List<ExecResult> readQuietly(String labId, String node, List<CommandSequence.Step> reads)
            throws InterruptedException {
        if (reads.isEmpty()) {
            return List.of();
        }
        try {
            return runtime.execAll(labId, node, reads);
        } catch (EngineUnavailableException | NodeNotFoundException e) {
            return List.of();
        }
    }

    private static <T> List<T> concat(List<T> first, List<T> then) {
        List<T> both = new ArrayList<>(first);
        both.addAll(then);
        return both;
    }

    /** The servers started {@code early} for {@code m} while they are fresh, else new ones. */
    private Map<String, IperfServer.Started> serversFor(String labId, Iperf3Measurement m, EarlyServers early)
            throws EngineUnavailableException, NodeNotFoundException, InterruptedException {
        if (early.forLoad(m)) {
            if (early.fresh()) {
                return early.servers();
            }
            // The load waited long for its slots: its early servers may end before it ends, so it gets new ones.
            // The early ones are stopped first: a flow's fixed port must be free again for its new server.
            stopUnusedServers(labId, early);
        }
        return IperfServer.startAll(runtime, labId, serverRequests(m), m.timeout(), Map.of(), threads)
                .servers();
    }

    /** A server for each flow of {@code m}: on the flow's own port, or else on one picked at random for it. */
    private static List<IperfServer.Request> serverRequests(Iperf3Measurement m) {
        Set<Integer> ports = new HashSet<>();
        m.flows().stream()
                .map(Iperf3Measurement.Flow::port)
                .filter(Objects::nonNull)
                .forEach(ports::add);
        List<IperfServer.Request> requests = new ArrayList<>();
        for (Iperf3Measurement.Flow flow : m.flows()) {
            requests.add(new IperfServer.Request(
                    flow.name(), flow.server(), flow.port() != null ? flow.port() : freePort(ports)));
        }
        return requests;
    }

    private static int freePort(Set<Integer> taken) {
        int port;
        do {
            port = IperfServer.randomPort();
        } while (!taken.add(port));
        return port;
    }

    /**
     * Stops the servers started {@code early} that no client will use. One that cannot be stopped (the lab or the
     * engine is going away) ends by its own lifetime: the check's answer does not change for it.
     */
    void stopUnusedServers(String labId, EarlyServers early) throws InterruptedException {
        for (IperfServer.Started server : early.servers().values()) {
            try {
                IperfServer.stop(runtime, labId, server);
            } catch (EngineUnavailableException | NodeNotFoundException e) {
                // See above: bounded by its lifetime, and whatever the check does next meets the same failure.
            }
        }
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

    /** Ends the load threads (the application stops): running loads are interrupted. */
    void shutDownThreads() {
        threads.shutdownNow();
    }
}
