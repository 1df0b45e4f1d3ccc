package dev.tclab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.lab.TestTopologies;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.runtime.LabSpec;
import dev.tclab.runtime.topology.Topology;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * How many lab starts the engine should run at once ({@code tclab.lab.concurrent-starts}): a burst of
 * {@code bench.burst} (default 8) two-node labs asked for at the same moment, started through the runtime by k
 * workers, for each k of {@code bench.workers} (default 1,2,4,8). Reports when the last lab was ready (the burst's makespan) and each lab's wait+start time.
 * Runs only with {@code mvn -Pbenchmark verify}; writes target/benchmarks/start-concurrency.md.
 */
@QuarkusTest
class StartConcurrencyBenchmark {

    private static final int BURST = Integer.getInteger("bench.burst", 8);
    private static final int ROUNDS = Integer.getInteger("bench.rounds", 2);
    /** The worker counts to compare, e.g. -Dbench.workers=4,8,16 for a class-sized burst. */
    private static final List<Integer> WORKERS = Arrays.stream(
                    System.getProperty("bench.workers", "1,2,4,8").split(","))
            .map(String::trim)
            .map(Integer::valueOf)
            .toList();

    @Inject
    LabRuntime runtime;

    @Test
    void burstOfStartsByNumberOfWorkers() throws Exception {
        Topology topology = TestTopologies.load("two-node");
        StringBuilder report = new StringBuilder("| workers | bursts | last ready (makespan) p50 ms | max ms "
                + "| per lab p50 ms | p95 ms |\n|---|---|---|---|---|---|\n");
        burst(topology, 2, new ArrayList<>());
        for (int workers : WORKERS) {
            List<Double> makespans = new ArrayList<>();
            List<Double> perLab = new ArrayList<>();
            for (int round = 0; round < ROUNDS; round++) {
                makespans.add(burst(topology, workers, perLab));
            }
            Stats m = Stats.of(makespans);
            Stats l = Stats.of(perLab);
            report.append(String.format(
                    "| %d | %d | %.0f | %.0f | %.0f | %.0f |%n", workers, ROUNDS, m.p50(), m.max(), l.p50(), l.p95()));
        }
        Path out = Path.of("target/benchmarks/start-concurrency.md");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);
        System.out.println(report);
        assertThat(Files.size(out)).isPositive();
    }

    /** Starts BURST labs with {@code workers} threads; returns when the last was ready, adds each lab's time. */
    private double burst(Topology topology, int workers, List<Double> perLab) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        List<String> ids = new ArrayList<>();
        List<Future<Double>> starts = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int i = 0; i < BURST; i++) {
            String id = "c" + UUID.randomUUID().toString().substring(0, 8);
            ids.add(id);
            starts.add(pool.submit(() -> {
                runtime.start(new LabSpec(id, topology, "bench", topology.name()), (stage, detail) -> {});
                return (System.nanoTime() - t0) / 1e6;
            }));
        }
        double last = 0;
        try {
            for (Future<Double> start : starts) {
                double ms = start.get();
                perLab.add(ms);
                last = Math.max(last, ms);
            }
        } finally {
            pool.shutdown();
            for (String id : ids) {
                runtime.stop(id);
            }
        }
        return last;
    }
}
