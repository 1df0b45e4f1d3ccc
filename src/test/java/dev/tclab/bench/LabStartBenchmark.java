package dev.tclab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import dev.tclab.config.TclabConfig;
import dev.tclab.lab.LabRuntime;
import dev.tclab.lab.LabSpec;
import dev.tclab.lab.TestTopologies;
import dev.tclab.lab.Topology;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/**
 * Lab start time to ready, next to its floor measured in the same run: the fastest way found to do the same container
 * work on the same engine, the docker CLI's {@code docker run -d} of the same hardened nodes, each followed by its
 * measurement sidecar, all nodes in parallel, without wiring or setup. (A hand-written docker-java create+start was
 * no faster than the CLI here, and the old floor that used one ran a lighter container than a lab's.) Runs only
 * with {@code mvn -Pbenchmark verify}; writes target/benchmarks/lab-start.md.
 */
@QuarkusTest
class LabStartBenchmark {

    private static final int RUNS = Integer.getInteger("bench.runs", 25);
    private static final int WARMUP = 3;

    /** A thread per node, as the runtime has. */
    private final ExecutorService runner = Executors.newCachedThreadPool();

    @Inject
    LabRuntime runtime;

    @Inject
    DockerClient docker;

    @Inject
    TclabConfig config;

    @Test
    void labStartAgainstRawCreateAndStart() throws Exception {
        StringBuilder report = new StringBuilder("| measurement | runs | p50 ms | p95 ms | min ms | max ms |\n|---|---|---|---|---|---|\n");
        List<String> ratios = new ArrayList<>();
        for (String name : List.of("two-node", "four-node")) {
            Topology topology = TestTopologies.load(name);
            List<Double> app = new ArrayList<>();
            List<Double> floor = new ArrayList<>();
            for (int i = 0; i < RUNS + WARMUP; i++) {
                // Alternate the two so that machine noise falls on both alike.
                double f = cliRun(topology);
                double a = appStart(topology);
                if (i >= WARMUP) {
                    floor.add(f);
                    app.add(a);
                }
            }
            Stats appStats = Stats.of(app);
            Stats floorStats = Stats.of(floor);
            report.append(appStats.row(name + " lab, tclab start to ready")).append('\n');
            report.append(floorStats.row(name + " floor: docker run -d, nodes and sidecars")).append('\n');
            ratios.add(String.format("%s: p50 ratio %.2f, p95 ratio %.2f", name, appStats.p50() / floorStats.p50(),
                    appStats.p95() / floorStats.p95()));
        }
        report.append('\n');
        ratios.forEach(r -> report.append("- ").append(r).append('\n'));
        Path out = Path.of("target/benchmarks/lab-start.md");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);
        System.out.println(report);
        assertThat(Files.size(out)).isPositive();
    }

    private double appStart(Topology topology) throws Exception {
        String id = "b" + UUID.randomUUID().toString().substring(0, 8);
        long t0 = System.nanoTime();
        runtime.start(new LabSpec(id, topology, "bench", topology.name()), (stage, detail) -> { });
        double ms = (System.nanoTime() - t0) / 1e6;
        runtime.stop(id);
        return ms;
    }

    /** {@code docker run -d} of each node then its sidecar, with the options the runtime gives them; nodes in parallel. */
    private double cliRun(Topology topology) throws Exception {
        String prefix = "tclab-floor-" + UUID.randomUUID().toString().substring(0, 8) + "-";
        TclabConfig.Lab lab = config.lab();
        long t0 = System.nanoTime();
        List<CompletableFuture<Void>> started = topology.nodes().values().stream().map(node ->
                CompletableFuture.runAsync(() -> {
                    List<String> run = new ArrayList<>(List.of("docker", "run", "-d", "--name", prefix + node.name(),
                            "--hostname", node.name(), "--network", "none", "--memory", lab.memoryMib() + "m",
                            "--memory-swap", lab.memoryMib() + "m", "--cpus", String.valueOf(lab.cpus()),
                            "--pids-limit", String.valueOf(lab.pids()),
                            "--tmpfs", "/tmp:rw,nosuid,nodev,noexec,size=" + lab.tmpMib() + "m",
                            "--tmpfs", "/root:rw,nosuid,nodev,exec,size=" + lab.homeMib() + "m",
                            "--tmpfs", "/run:rw,nosuid,nodev,noexec,size=" + lab.runMib() + "m"));
                    node.sysctls().forEach((k, v) -> run.addAll(List.of("--sysctl", k + "=" + v)));
                    run.addAll(hardening());
                    run.addAll(List.of(lab.image(), "sleep", "infinity"));
                    docker(run);
                    List<String> sidecar = new ArrayList<>(List.of("docker", "run", "-d",
                            "--name", prefix + node.name() + ".measure", "--network", "container:" + prefix + node.name(),
                            "--memory", "64m", "--memory-swap", "64m", "--pids-limit", "32",
                            "--tmpfs", "/tmp:rw,nosuid,nodev,noexec,size=4m",
                            "--tmpfs", "/run:rw,nosuid,nodev,noexec,size=4m"));
                    sidecar.addAll(hardening());
                    sidecar.addAll(List.of(lab.measurementImage().orElse(lab.image()), "sleep", "infinity"));
                    docker(sidecar);
                }, runner)).toList();
        started.forEach(CompletableFuture::join);
        double ms = (System.nanoTime() - t0) / 1e6;
        for (Topology.Node node : topology.nodes().values()) {
            docker.removeContainerCmd(prefix + node.name() + ".measure").withForce(true).exec();
            docker.removeContainerCmd(prefix + node.name()).withForce(true).exec();
        }
        return ms;
    }

    private static List<String> hardening() {
        return List.of("--label", "tclab.app=tclab-benchmark", "--cap-drop", "ALL", "--cap-add", "NET_ADMIN",
                "--cap-add", "NET_RAW", "--security-opt", "no-new-privileges", "--read-only", "--log-driver", "none",
                "--init");
    }

    private static void docker(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
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
