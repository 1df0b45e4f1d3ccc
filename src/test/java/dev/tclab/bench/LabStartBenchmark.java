package dev.tclab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.HostConfig;
import dev.tclab.config.TclabConfig;
import dev.tclab.lab.LabRuntime;
import dev.tclab.lab.LabSpec;
import dev.tclab.lab.TestTopologies;
import dev.tclab.lab.Topology;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Lab start time to ready, next to its physical floor measured in the same run: plain docker-java create+start of
 * the same containers (same image, network none, in parallel), without wiring or setup. Runs only with
 * {@code mvn -Pbenchmark verify}; writes target/benchmarks/lab-start.md.
 */
@QuarkusTest
class LabStartBenchmark {

    private static final int RUNS = Integer.getInteger("bench.runs", 25);
    private static final int WARMUP = 3;

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
                double f = rawCreateAndStart(topology);
                double a = appStart(topology);
                if (i >= WARMUP) {
                    floor.add(f);
                    app.add(a);
                }
            }
            Stats appStats = Stats.of(app);
            Stats floorStats = Stats.of(floor);
            report.append(appStats.row(name + " lab, tclab start to ready")).append('\n');
            report.append(floorStats.row(name + " floor: docker-java create+start")).append('\n');
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

    private double rawCreateAndStart(Topology topology) throws IOException {
        String prefix = "tclab-floor-" + UUID.randomUUID().toString().substring(0, 8) + "-";
        long t0 = System.nanoTime();
        List<CompletableFuture<String>> started = topology.nodes().keySet().stream().map(node ->
                CompletableFuture.supplyAsync(() -> {
                    String id = docker.createContainerCmd(config.lab().image()).withName(prefix + node)
                            .withLabels(Map.of("tclab.app", "tclab-benchmark"))
                            .withCmd("sleep", "infinity")
                            .withHostConfig(HostConfig.newHostConfig().withNetworkMode("none").withInit(true))
                            .exec().getId();
                    docker.startContainerCmd(id).exec();
                    return id;
                })).toList();
        List<String> ids = started.stream().map(CompletableFuture::join).toList();
        double ms = (System.nanoTime() - t0) / 1e6;
        ids.forEach(id -> docker.removeContainerCmd(id).withForce(true).exec());
        return ms;
    }
}
