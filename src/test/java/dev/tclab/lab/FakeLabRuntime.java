package dev.tclab.lab;

import dev.tclab.runtime.CpuPriority;
import dev.tclab.runtime.EngineStatus;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.KernelCapabilities;
import dev.tclab.runtime.LabProgressListener;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.runtime.LabSpec;
import dev.tclab.runtime.LabStartException;
import dev.tclab.runtime.NodeNotFoundException;
import dev.tclab.runtime.NodeStatus;
import dev.tclab.runtime.ProcessStream;
import dev.tclab.runtime.RuntimeAdapter;
import dev.tclab.runtime.StreamListener;
import dev.tclab.runtime.topology.Topology;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.stream.Collectors;

/**
 * An in-memory {@link LabRuntime} for tests that exercise the app above the seam. Enabled only by
 * {@link FakeRuntimeProfile}; tests against the real engine use the Docker runtime. Tests script its answers:
 * exec results, engine reachability, start failures.
 */
@Alternative
// A singleton, not application-scoped: tests read its public fields, which a client proxy would not forward.
@Singleton
public class FakeLabRuntime implements RuntimeAdapter {

    private static final String IPERF3_SERVER = "iperf3 -s -1 -J -p ";

    public final Map<String, LabSpec> running = new ConcurrentHashMap<>();
    /** Expiry of labs on the engine, as the real runtime labels them; labs without one never expire. */
    public final Map<String, Instant> expires = new ConcurrentHashMap<>();
    /** Labs whose kernel the heartbeat finds silent ({@link #silentKernels}). */
    public final Set<String> silent = ConcurrentHashMap.newKeySet();
    /**
     * Commands run since the latest lab start, as "node: command"; the platform's own iperf3 servers for checks
     * (the address lookup and the server start) are answered by the fake and listed in {@link #iperf3Servers}.
     */
    public final List<String> execLog = new CopyOnWriteArrayList<>();
    /** Nodes where a check started its one-off iperf3 server, in order. */
    public final List<String> iperf3Servers = new CopyOnWriteArrayList<>();
    /** Nodes where a check stopped a one-off iperf3 server it started and did not use, in order. */
    public final List<String> iperf3ServersStopped = new CopyOnWriteArrayList<>();
    /** Exit code of a check's iperf3 server start: 0 listening, 3 the port is taken (see IperfServer). */
    public volatile int iperf3ServerExit;

    private final AtomicLong linkBytes = new AtomicLong();
    private final AtomicLong echoReplies = new AtomicLong();
    public volatile boolean reachable = true;
    /** How many times a lab's status was asked of the engine since the latest reset. */
    public final java.util.concurrent.atomic.AtomicInteger statusCalls =
            new java.util.concurrent.atomic.AtomicInteger();

    public volatile boolean imagePresent = true;
    public volatile String failStartWith;
    /** Runs as the last thing of every start, on the starting thread (tests race a stop against it). */
    public volatile Runnable onStartReturning = () -> {};

    public volatile KernelCapabilities kernel = new KernelCapabilities(
            Map.of("qdisc:tbf", true, "qdisc:htb", true, "qdisc:cake", false, "link:ifb", true), "fake");
    /** CPU priorities raised and not yet closed ({@link #raiseCpuPriority}). */
    public final java.util.concurrent.atomic.AtomicInteger cpuRaised = new java.util.concurrent.atomic.AtomicInteger();
    /** How many times the lab's CPU priority was raised in all. */
    public final java.util.concurrent.atomic.AtomicInteger cpuRaises = new java.util.concurrent.atomic.AtomicInteger();
    /** How long starting a shell takes (a busy engine's exec), on the thread that starts it. */
    public volatile Duration shellStartDelay = Duration.ZERO;
    /** Whether every lab runs in a kernel of its own, as a UML runtime's do. */
    public volatile boolean ownKernel;
    /** The features of the kernel of its own that every lesson's lab gets, or null (see {@link #ownKernel(Topology, String)}). */
    public volatile KernelCapabilities ownKernelFeatures;
    /** Answers exec calls: (node, command joined by spaces) to result. Default: exit 0, no output. */
    public volatile BiFunction<String, String, ExecResult> execHandler =
            (node, cmd) -> new ExecResult(0, "", "", false);

    /** Back to defaults, for test isolation. */
    public void reset() {
        running.clear();
        expires.clear();
        silent.clear();
        execLog.clear();
        iperf3Servers.clear();
        iperf3ServersStopped.clear();
        iperf3ServerExit = 0;
        reachable = true;
        statusCalls.set(0);
        imagePresent = true;
        failStartWith = null;
        onStartReturning = () -> {};
        ownKernel = false;
        ownKernelFeatures = null;
        shellStartDelay = Duration.ZERO;
        cpuRaised.set(0);
        cpuRaises.set(0);
        execHandler = (node, cmd) -> new ExecResult(0, "", "", false);
    }

    @Override
    public EngineStatus engine() {
        return reachable ? EngineStatus.up("fake-1.0", "fake://") : EngineStatus.down("fake://", "fake engine is down");
    }

    @Override
    public boolean imagePresent(String image) throws EngineUnavailableException {
        checkReachable();
        return imagePresent;
    }

    @Override
    public void start(LabSpec spec, LabProgressListener progress) throws LabStartException, EngineUnavailableException {
        checkReachable();
        for (LabProgressListener.Stage stage : LabProgressListener.Stage.values()) {
            if (failStartWith != null && stage == LabProgressListener.Stage.WIRING) {
                throw new LabStartException(failStartWith);
            }
            progress.onStage(stage, "");
        }
        running.put(spec.labId(), spec);
        execLog.clear();
        onStartReturning.run();
    }

    @Override
    public void stop(String labId) throws EngineUnavailableException {
        checkReachable();
        running.remove(labId);
    }

    @Override
    public List<NodeStatus> status(String labId) throws EngineUnavailableException {
        statusCalls.incrementAndGet();
        checkReachable();
        LabSpec spec = running.get(labId);
        if (spec == null) {
            return List.of();
        }
        return spec.topology().nodes().keySet().stream()
                .map(n -> new NodeStatus(n, true, "running"))
                .toList();
    }

    @Override
    public Set<String> silentKernels(Set<String> running) {
        return running.stream().filter(silent::contains).collect(Collectors.toSet());
    }

    @Override
    public ExecResult exec(String labId, String node, List<String> command, Duration timeout)
            throws EngineUnavailableException, NodeNotFoundException {
        node(labId, node);
        String joined = String.join(" ", command);
        if (joined.contains(IPERF3_SERVER) && joined.contains("cat ")) {
            // The server's own report once its client is done (grading.run.LinkProof): it heard every flow in full.
            return new ExecResult(
                    0,
                    "{\"end\": {\"sum_sent\": {\"bytes\": %d}, \"sum_received\": {\"bytes\": %d}}}"
                            .formatted(Long.MAX_VALUE / 2, Long.MAX_VALUE / 2),
                    "",
                    false);
        }
        if (command.size() == 5 && command.get(2).startsWith("ip -4 route get")) {
            // The node's route to a flow's server (grading.run.RouteProof): out of its first lab link.
            List<String> links = running.get(labId).topology().interfacesOf(node);
            return new ExecResult(
                    0,
                    command.get(4) + " dev " + (links.isEmpty() ? "eth0" : links.get(0)) + " uid 0\n--- rules\n"
                            + "0:\tfrom all lookup local\n32766:\tfrom all lookup main\n32767:\tfrom all lookup default\n",
                    "",
                    false);
        }
        if (joined.contains(IPERF3_SERVER) && joined.contains("pkill")) {
            iperf3ServersStopped.add(node);
            return new ExecResult(0, "", "", false);
        }
        if (joined.contains(IPERF3_SERVER)) {
            // Asked of every node: its arguments are the address, the port and the lifetime (see IperfServer).
            if (!ownsAddress(running.get(labId), node, command.get(command.size() - 3))) {
                return new ExecResult(10, "", "", false);
            }
            iperf3Servers.add(node);
            return new ExecResult(iperf3ServerExit, "owner\n", "", false);
        }
        if (joined.startsWith("sh -c echo @@tclab-qdiscs")) {
            // Where a flow went (grading.run.FlowTrace): this lab has no qdiscs or classes to count it.
            return new ExecResult(0, "", "", false);
        }
        if (joined.equals("cat /proc/net/snmp")) {
            // The echo replies a ping's target sent (grading.run.LinkProof): a million more at each read, more than
            // any fixture's ping gets.
            return new ExecResult(
                    0, "Icmp: InMsgs OutEchoReps\nIcmp: 0 " + echoReplies.addAndGet(1_000_000) + "\n", "", false);
        }
        if (joined.equals("cat /proc/net/dev")) {
            return new ExecResult(0, linkCounters(running.get(labId), node), "", false);
        }
        execLog.add(node + ": " + joined);
        return execHandler.apply(node, joined);
    }

    /**
     * The node's /proc/net/dev as a lab whose links carry every flow shows it: each read finds every link interface's
     * byte counters a terabyte further on, more than any fixture's flow reports (the link proof, grading.LinkProof).
     */
    private String linkCounters(LabSpec spec, String node) {
        long bytes = linkBytes.addAndGet(1L << 40);
        StringBuilder dev = new StringBuilder("Inter-|   Receive |  Transmit\n face |bytes packets errs drop fifo frame"
                + " compressed multicast|bytes packets errs drop fifo colls carrier compressed\n");
        for (String iface : spec.topology().interfacesOf(node)) {
            dev.append(String.format("%6s: %d 0 0 0 0 0 0 0 %d 0 0 0 0 0 0 0%n", iface, bytes, bytes));
        }
        return dev.toString();
    }

    /**
     * Whether the node holds the address, as a running lab would say: its setup commands add it; in a topology whose
     * setup adds no address at all, the node named "server" holds every address (so tests need not spell it out).
     */
    private static boolean ownsAddress(LabSpec spec, String node, String address) {
        boolean anyAddress = spec.topology().nodes().values().stream()
                .anyMatch(n -> n.exec().stream().anyMatch(c -> c.startsWith("ip addr add ")));
        return anyAddress
                ? spec.topology().nodes().get(node).exec().stream()
                        .anyMatch(c -> c.startsWith("ip addr add " + address + "/"))
                : node.equals("server");
    }

    @Override
    public ProcessStream stream(String labId, String node, List<String> command, StreamListener listener)
            throws EngineUnavailableException, NodeNotFoundException {
        return echoing(labId, node, listener);
    }

    @Override
    public ProcessStream shell(String labId, String node, List<String> command, StreamListener listener)
            throws EngineUnavailableException, NodeNotFoundException {
        try {
            Thread.sleep(shellStartDelay.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EngineUnavailableException("interrupted while starting a shell", e);
        }
        return echoing(labId, node, listener);
    }

    /** A process that echoes its input and reports resizes. */
    private ProcessStream echoing(String labId, String node, StreamListener listener)
            throws EngineUnavailableException, NodeNotFoundException {
        node(labId, node);
        List<String> sizes = new ArrayList<>();
        return new ProcessStream() {
            @Override
            public boolean write(byte[] input) {
                listener.onOutput(input);
                return true;
            }

            @Override
            public void resize(int columns, int rows) {
                sizes.add(columns + "x" + rows);
                listener.onOutput(("resized " + columns + "x" + rows + "\n").getBytes(StandardCharsets.UTF_8));
            }

            @Override
            public void close() {
                listener.onClosed("closed");
            }
        };
    }

    @Override
    public CpuPriority raiseCpuPriority(String labId) {
        cpuRaises.incrementAndGet();
        cpuRaised.incrementAndGet();
        java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
        return () -> {
            if (closed.compareAndSet(false, true)) {
                cpuRaised.decrementAndGet();
            }
        };
    }

    @Override
    public boolean runsOwnKernel(String labId) {
        return ownKernel;
    }

    /**
     * A lesson's lab gets a kernel of its own with {@link #ownKernelFeatures} when set, else, with {@link #ownKernel},
     * one with {@link #kernel}'s features; otherwise it runs on the host's.
     */
    @Override
    public Optional<KernelCapabilities> ownKernel(Topology topology, String lesson) {
        if (ownKernelFeatures != null) {
            return Optional.of(ownKernelFeatures);
        }
        return ownKernel ? Optional.of(kernel) : Optional.empty();
    }

    @Override
    public boolean runsOwnKernel(Topology topology, String lesson) {
        return ownKernel || ownKernelFeatures != null;
    }

    @Override
    public Set<String> labsOnEngine() throws EngineUnavailableException {
        checkReachable();
        return Set.copyOf(running.keySet());
    }

    @Override
    public Set<String> removeExpiredLabs(Instant now) throws EngineUnavailableException {
        checkReachable();
        Set<String> expired = new HashSet<>();
        expires.forEach((labId, at) -> {
            if (at.isBefore(now) && running.remove(labId) != null) {
                expired.add(labId);
            }
        });
        return expired;
    }

    @Override
    public KernelCapabilities probeKernel() throws EngineUnavailableException {
        checkReachable();
        return kernel;
    }

    private void node(String labId, String node) throws EngineUnavailableException, NodeNotFoundException {
        checkReachable();
        LabSpec spec = running.get(labId);
        if (spec == null || !spec.topology().nodes().containsKey(node)) {
            throw new NodeNotFoundException(labId, node);
        }
    }

    private void checkReachable() throws EngineUnavailableException {
        if (!reachable) {
            throw new EngineUnavailableException("fake engine is down", null);
        }
    }
}
