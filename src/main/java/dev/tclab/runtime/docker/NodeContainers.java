package dev.tclab.runtime.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.LogConfig;
import dev.tclab.config.TclabConfig;
import dev.tclab.runtime.BoundedCommand;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.LabExpiry;
import dev.tclab.runtime.LabSpec;
import dev.tclab.runtime.ProcessLimit;
import dev.tclab.runtime.agent.SidecarAgent;
import dev.tclab.runtime.topology.Topology;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/** Creates, starts and removes hardened lab containers. */
public final class NodeContainers {

    private static final long MIB = 1024L * 1024;

    /** Enough for iperf3, ping and tc; the sidecar runs nothing else. */
    private static final long SIDECAR_MEMORY_MIB = 64;

    private static final long SIDECAR_PIDS = 32;
    private static final int SIDECAR_TMPFS_MIB = 4;
    /** How long to wait for another remover's removal of the same container (it takes well under a second). */
    private static final Duration REMOVAL_WAIT = Duration.ofSeconds(20);

    private static final Duration REMOVAL_POLL = Duration.ofMillis(100);
    /**
     * No container log: nothing tclab needs goes to a node's stdout (setup and check output come back over exec),
     * and a learner writing to /proc/1/fd/1 would otherwise grow a json log file on the host's disk without bound.
     */
    public static final LogConfig NO_LOG = new LogConfig(LogConfig.LoggingType.NONE);

    private final DockerClient docker;
    private final TclabConfig.Lab limits;

    public NodeContainers(DockerClient docker, TclabConfig config) {
        this.docker = docker;
        this.limits = config.lab();
    }

    /**
     * A node's container started, with its init process's pid on the engine host (for wiring its namespace), its
     * main process waiting to run the node's setup ({@code setup}, attached), and its measurement sidecar starting
     * ({@code sidecarStarted}), while the other nodes start and the links are wired.
     */
    record Started(String node, String containerId, long pid, NodeSetup setup, Future<Void> sidecarStarted) {}

    static String name(String labId, String node) {
        return "tclab-" + labId + "-" + node;
    }

    /** The measurement sidecar's name; node names cannot hold a dot, so it never equals another node's name. */
    static String sidecarName(String labId, String node) {
        return name(labId, node) + ".measure";
    }

    /** When a lab started now becomes an orphan for sure; every container of the lab carries it. */
    public Instant expiry(boolean pooled) {
        return LabExpiry.of(Instant.now(), limits.maxLifetime(), pooled);
    }

    /**
     * Creates the node and its sidecar, starts the node, and then the sidecar on {@code background}. The sidecar is
     * created while the node starts (a create needs the node to exist, not to run), and started as soon as its own
     * node runs (joining a network namespace needs its owner running), not once every node of the lab runs: its
     * start overlaps the other nodes' starts, the wiring and the setup. The node's main process runs {@code setup}
     * when told ({@link NodeSetup}).
     */
    Started createAndStart(
            String instance,
            LabSpec spec,
            Topology.Node node,
            String setup,
            String image,
            String sidecarImage,
            Instant expires,
            ExecutorService background,
            EngineCallTimes times) {
        CreateContainerCmd create = docker.createContainerCmd(image)
                .withName(name(spec.labId(), node.name()))
                .withHostName(node.name())
                .withLabels(Labels.node(instance, spec, node.name(), expires))
                .withEnv(node.env().entrySet().stream()
                        .map(e -> e.getKey() + "=" + e.getValue())
                        .toList())
                .withCmd(NodeSetup.command(setup))
                // One line from the app starts the setup; the input closes when the app detaches.
                .withStdinOpen(true)
                .withStdInOnce(true)
                .withHostConfig(hardened(node.sysctls())
                        .withCpuShares(CpuWeights.atRest(spec.topology().nodes().size())));
        String id = times.time(EngineCallTimes.CREATE, () -> create.exec().getId());
        Future<String> sidecar = background.submit(() -> times.time(
                EngineCallTimes.CREATE, () -> createSidecar(instance, spec, node.name(), id, sidecarImage, expires)));
        try {
            times.time(EngineCallTimes.START, () -> docker.startContainerCmd(id).exec());
            Long pid = times.time(
                    EngineCallTimes.INSPECT,
                    () -> docker.inspectContainerCmd(id).exec().getState().getPidLong());
            String sidecarId = sidecar.get();
            NodeSetup attached = new NodeSetup(docker, id);
            return new Started(node.name(), id, pid == null ? 0 : pid, attached, background.submit(() -> {
                times.time(
                        EngineCallTimes.START,
                        () -> docker.startContainerCmd(sidecarId).exec());
                return null;
            }));
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating the sidecar of " + node.name(), e);
        } finally {
            // On a failure the lab is removed by label: the sidecar must exist by then or it would outlive the lab.
            waitFor(sidecar);
        }
    }

    private static void waitFor(Future<?> task) {
        try {
            task.get();
        } catch (ExecutionException e) {
            // Reported by the caller when it matters.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Creates the node's measurement sidecar: a container of the platform's image in the node's network namespace
     * (so it sees the node's interfaces, qdiscs and addresses) but with its own read-only filesystem and its own PID
     * namespace, so nothing the learner does to the node's files or processes changes what the platform measures.
     * NET_ADMIN is for tc and for iperf3's {@code -C cubic}; NET_RAW is for ping.
     */
    private String createSidecar(
            String instance, LabSpec spec, String node, String nodeContainerId, String image, Instant expires) {
        HostConfig host = HostConfig.newHostConfig()
                .withNetworkMode("container:" + nodeContainerId)
                .withCpuShares(CpuWeights.atRest(spec.topology().nodes().size()))
                .withCapDrop(Capability.ALL)
                .withCapAdd(Capability.NET_ADMIN, Capability.NET_RAW)
                .withSecurityOpts(List.of("no-new-privileges"))
                .withMemory(SIDECAR_MEMORY_MIB * MIB)
                .withMemorySwap(SIDECAR_MEMORY_MIB * MIB)
                .withPidsLimit(SIDECAR_PIDS)
                .withReadonlyRootfs(true)
                .withTmpFs(Map.of("/tmp", tmpfs(SIDECAR_TMPFS_MIB, false), "/run", tmpfs(SIDECAR_TMPFS_MIB, false)))
                .withLogConfig(NO_LOG)
                // The init reaps one-off iperf3 servers that outlive the exec that started them.
                .withInit(true);
        return docker.createContainerCmd(image)
                .withName(sidecarName(spec.labId(), node))
                .withLabels(Labels.sidecar(instance, spec, node, expires))
                // Its main process runs the platform's commands (SidecarAgent), read from its standard input.
                .withCmd(SidecarAgent.command())
                .withStdinOpen(true)
                .withHostConfig(host)
                .exec()
                .getId();
    }

    /**
     * Learners are root in these containers, so they get only what traffic control needs: NET_ADMIN and NET_RAW,
     * no privilege escalation, resource limits, and no network but the lab's own veth links.
     */
    HostConfig hardened(Map<String, String> sysctls) {
        return HostConfig.newHostConfig()
                .withNetworkMode("none")
                .withCapDrop(Capability.ALL)
                .withCapAdd(Capability.NET_ADMIN, Capability.NET_RAW)
                .withSecurityOpts(List.of("no-new-privileges"))
                .withMemory(limits.memoryMib() * MIB)
                .withMemorySwap(limits.memoryMib() * MIB)
                .withNanoCPUs((long) (limits.cpus() * 1_000_000_000L))
                .withPidsLimit(limits.pids())
                .withSysctls(sysctls)
                // The host's disk is out of reach: the root filesystem is read-only and where a learner must write
                // (shell history, iperf3 -J files, pid files) is a size-capped tmpfs, charged to the node's memory.
                .withReadonlyRootfs(true)
                .withTmpFs(Map.of(
                        "/tmp",
                        tmpfs(limits.tmpMib(), false),
                        "/root",
                        tmpfs(limits.homeMib(), true),
                        "/run",
                        tmpfs(limits.runMib(), false)))
                .withLogConfig(NO_LOG)
                // An init reaps the zombies that learners' background jobs leave behind.
                .withInit(true);
    }

    /** Mount options of a size-capped tmpfs; {@code exec} lets a learner run scripts kept there (their home). */
    private static String tmpfs(int mib, boolean exec) {
        return "rw,nosuid,nodev," + (exec ? "exec" : "noexec") + ",size=" + mib + "m";
    }

    /**
     * Whether the container runs as many processes as its pids limit ({@link ProcessLimit}). The engine lists the
     * processes from the host (never by a process in the container, which could not fork either).
     */
    boolean atProcessLimit(String containerId) {
        Long limit =
                docker.inspectContainerCmd(containerId).exec().getHostConfig().getPidsLimit();
        if (limit == null || limit <= 0) {
            return false;
        }
        String[][] processes = docker.topContainerCmd(containerId).exec().getProcesses();
        return processes != null && ProcessLimit.reached(processes.length, limit);
    }

    /**
     * Removes a container, killing it first. It is gone when this returns: already gone (404) counts as done, and
     * a removal already in progress (409) is waited for.
     */
    public void remove(String containerId) {
        try {
            docker.removeContainerCmd(containerId)
                    .withForce(true)
                    .withRemoveVolumes(true)
                    .exec();
        } catch (NotFoundException e) {
            // Done already.
        } catch (ConflictException e) {
            // "Removal already in progress": another remover (a reaper, another replica) is on it; the engine
            // answers at once, so wait for the container to be gone rather than report it removed while it exists.
            awaitGone(containerId);
        }
    }

    private void awaitGone(String containerId) {
        long deadline = System.nanoTime() + REMOVAL_WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                docker.inspectContainerCmd(containerId).exec();
                Thread.sleep(REMOVAL_POLL.toMillis());
            } catch (NotFoundException gone) {
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Runs a script in a fresh hardened container with no network, then removes it. */
    ExecResult runThrowaway(String instance, String image, List<String> command, Duration timeout) {
        String id = docker.createContainerCmd(image)
                .withName("tclab-probe-" + Long.toHexString(System.nanoTime()))
                .withLabels(Labels.throwaway(
                        instance,
                        Labels.ROLE_PROBE,
                        LabExpiry.of(Instant.now(), timeout.plus(BoundedCommand.DEADLINE_MARGIN))))
                .withCmd("sleep", "infinity")
                .withHostConfig(hardened(Map.of()))
                .exec()
                .getId();
        try {
            docker.startContainerCmd(id).exec();
            return DockerExec.run(docker, id, command, timeout);
        } finally {
            remove(id);
        }
    }
}
