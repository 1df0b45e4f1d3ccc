package dev.tclab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.config.TclabConfig;
import dev.tclab.lab.LabRuntime;
import dev.tclab.lab.LabSpec;
import dev.tclab.lab.TestTopologies;
import dev.tclab.lab.Topology;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Lab start time to ready, next to its floor measured in the same run: the fastest way found to do the same container
 * work on the same engine ({@link DockerRunFloor}). Runs only
 * with {@code mvn -Pbenchmark verify}; writes target/benchmarks/lab-start.md.
 */
@QuarkusTest
class LabStartBenchmark {

    private static final int RUNS = Integer.getInteger("bench.runs", 25);
    private static final int WARMUP = 3;

    @Inject
    LabRuntime runtime;

    @Inject
    TclabConfig config;

    private DockerRunFloor floor;

    @Test
    void labStartAgainstRawCreateAndStart() throws Exception {
        floor = new DockerRunFloor(config.lab());
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
        floor.close();
    }

    private double appStart(Topology topology) throws Exception {
        String id = "b" + UUID.randomUUID().toString().substring(0, 8);
        long t0 = System.nanoTime();
        runtime.start(new LabSpec(id, topology, "bench", topology.name()), (stage, detail) -> { });
        double ms = (System.nanoTime() - t0) / 1e6;
        runtime.stop(id);
        return ms;
    }

    /** The floor, timed as {@link DockerRunFloor#start} times it; its containers removed after. */
    private double cliRun(Topology topology) {
        DockerRunFloor.Run run = floor.start(topology);
        floor.remove(run);
        return run.millis();
    }
}
