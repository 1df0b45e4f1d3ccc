package dev.tclab.bench;

import dev.tclab.config.TclabConfig;
import dev.tclab.runtime.topology.Topology;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The floor of a lab start: the docker CLI's {@code docker run -d} of the same hardened nodes, each followed by its
 * measurement sidecar, all nodes in parallel, without wiring or setup. (A hand-written docker-java create+start was
 * no faster than the CLI here, and an older floor that used one ran a lighter container than a lab's.) Lighter
 * floors tell where a lab's time goes: its nodes alone, and its nodes without their hardening (no limits, read-only
 * root, tmpfs mounts or init).
 */
final class DockerRunFloor implements AutoCloseable {

    /** A thread per node, as the runtime has. */
    private final ExecutorService runner = Executors.newCachedThreadPool();

    private final TclabConfig.Lab lab;

    DockerRunFloor(TclabConfig.Lab lab) {
        this.lab = lab;
    }

    /** Which containers a floor run starts. */
    enum Kind {
        /** A lab's own containers: its hardened nodes and, each right after its node, their sidecars. */
        NODES_AND_SIDECARS,
        /** Only the hardened nodes. */
        NODES,
        /** The nodes as plain containers: no network, nothing else (no limits, read-only root, tmpfs or init). */
        BARE_NODES
    }

    /** The containers of one floor run, to remove once timed. */
    record Run(String prefix, Topology topology, Kind kind, double millis) {}

    /** A lab's own containers; see {@link #start(Topology, Kind)}. */
    Run start(Topology topology) {
        return start(topology, Kind.NODES_AND_SIDECARS);
    }

    /** Runs the topology's containers and returns once every one has started; time the call, then {@link #remove}. */
    Run start(Topology topology, Kind kind) {
        String prefix = "tclab-floor-" + UUID.randomUUID().toString().substring(0, 8) + "-";
        long t0 = System.nanoTime();
        List<CompletableFuture<Void>> started = topology.nodes().values().stream()
                .map(node -> CompletableFuture.runAsync(
                        () -> {
                            if (kind == Kind.BARE_NODES) {
                                docker(List.of(
                                        "docker",
                                        "run",
                                        "-d",
                                        "--name",
                                        prefix + node.name(),
                                        "--network",
                                        "none",
                                        "--label",
                                        "tclab.app=tclab-benchmark",
                                        lab.image(),
                                        "sleep",
                                        "infinity"));
                                return;
                            }
                            List<String> run = new ArrayList<>(List.of(
                                    "docker",
                                    "run",
                                    "-d",
                                    "--name",
                                    prefix + node.name(),
                                    "--hostname",
                                    node.name(),
                                    "--network",
                                    "none",
                                    "--memory",
                                    lab.memoryMib() + "m",
                                    "--memory-swap",
                                    lab.memoryMib() + "m",
                                    "--cpus",
                                    String.valueOf(lab.cpus()),
                                    "--pids-limit",
                                    String.valueOf(lab.pids()),
                                    "--tmpfs",
                                    "/tmp:rw,nosuid,nodev,noexec,size=" + lab.tmpMib() + "m",
                                    "--tmpfs",
                                    "/root:rw,nosuid,nodev,exec,size=" + lab.homeMib() + "m",
                                    "--tmpfs",
                                    "/run:rw,nosuid,nodev,noexec,size=" + lab.runMib() + "m"));
                            node.sysctls().forEach((k, v) -> run.addAll(List.of("--sysctl", k + "=" + v)));
                            run.addAll(hardening());
                            run.addAll(List.of(lab.image(), "sleep", "infinity"));
                            docker(run);
                            if (kind == Kind.NODES) {
                                return;
                            }
                            List<String> sidecar = new ArrayList<>(List.of(
                                    "docker",
                                    "run",
                                    "-d",
                                    "--name",
                                    prefix + node.name() + ".measure",
                                    "--network",
                                    "container:" + prefix + node.name(),
                                    "--memory",
                                    "64m",
                                    "--memory-swap",
                                    "64m",
                                    "--pids-limit",
                                    "32",
                                    "--tmpfs",
                                    "/tmp:rw,nosuid,nodev,noexec,size=4m",
                                    "--tmpfs",
                                    "/run:rw,nosuid,nodev,noexec,size=4m"));
                            sidecar.addAll(hardening());
                            sidecar.addAll(List.of(lab.measurementImage().orElse(lab.image()), "sleep", "infinity"));
                            docker(sidecar);
                        },
                        runner))
                .toList();
        started.forEach(CompletableFuture::join);
        return new Run(prefix, topology, kind, (System.nanoTime() - t0) / 1e6);
    }

    void remove(Run run) {
        List<String> rm = new ArrayList<>(List.of("docker", "rm", "-f"));
        for (Topology.Node node : run.topology().nodes().values()) {
            if (run.kind() == Kind.NODES_AND_SIDECARS) {
                rm.add(run.prefix() + node.name() + ".measure");
            }
            rm.add(run.prefix() + node.name());
        }
        docker(rm);
    }

    @Override
    public void close() {
        runner.shutdownNow();
    }

    private static List<String> hardening() {
        return List.of(
                "--label",
                "tclab.app=tclab-benchmark",
                "--cap-drop",
                "ALL",
                "--cap-add",
                "NET_ADMIN",
                "--cap-add",
                "NET_RAW",
                "--security-opt",
                "no-new-privileges",
                "--read-only",
                "--log-driver",
                "none",
                "--init");
    }

    static void docker(List<String> command) {
        try {
            Process process = new ProcessBuilder(command)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            if (process.waitFor() != 0) {
                throw new IllegalStateException("failed: " + String.join(" ", command));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
