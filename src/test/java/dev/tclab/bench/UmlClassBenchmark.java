package dev.tclab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import dev.tclab.config.TclabConfig;
import dev.tclab.lab.TestTopologies;
import dev.tclab.runtime.LabSpec;
import dev.tclab.runtime.RuntimeAdapter;
import dev.tclab.runtime.topology.Topology;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.common.annotation.Identifier;
import jakarta.inject.Inject;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A class of User-Mode Linux labs at once: {@code bench.labs} (30) 2-node labs started through the UML runtime with
 * the app's concurrency ({@code tclab.lab.concurrent-starts} at a time, as its lab starter runs them), all asked for
 * at the same moment. Reports the time until all were ready, each lab's start, the failures with their reasons, and
 * the memory of the labs' containers once all were ready (cgroup memory.current: the kernel's touched memory, a
 * file in the container's /dev/shm, included). Runs only with {@code mvn -Pbenchmark verify}; writes
 * target/benchmarks/uml-class.md.
 */
@QuarkusTest
class UmlClassBenchmark {

    private static final int LABS = Integer.getInteger("bench.labs", 30);
    private static final double MIB = 1024.0 * 1024;

    @Inject
    @Identifier("uml")
    RuntimeAdapter uml;

    @Inject
    TclabConfig config;

    @Inject
    DockerClient docker;

    @Test
    void aClassOfUmlLabsAtOnce() throws Exception {
        Topology topology = TestTopologies.load("two-node");
        int workers = config.lab().concurrentStarts();
        String loadBefore = loadAverage();
        List<String> labs = new ArrayList<>();
        List<Double> starts = Collections.synchronizedList(new ArrayList<>());
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        ExecutorService starter = Executors.newFixedThreadPool(workers);
        long t0 = System.nanoTime();
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < LABS; i++) {
                String id = "k" + UUID.randomUUID().toString().substring(0, 8);
                labs.add(id);
                running.add(starter.submit(() -> {
                    long begin = System.nanoTime();
                    try {
                        uml.start(new LabSpec(id, topology, "bench", topology.name()), (stage, detail) -> {});
                        starts.add((System.nanoTime() - begin) / 1e6);
                    } catch (Exception e) {
                        failures.add(id + ": " + e.getMessage());
                    }
                }));
            }
            for (Future<?> f : running) {
                f.get(30, TimeUnit.MINUTES);
            }
            double allReady = (System.nanoTime() - t0) / 1e6;
            long[] memory = new long[labs.size()];
            for (int i = 0; i < labs.size(); i++) {
                memory[i] = LabContainers.memoryBytes(docker, Map.of("tclab.lab", labs.get(i)));
            }
            List<Double> perLab = new ArrayList<>();
            long total = 0;
            for (long m : memory) {
                if (m > 0) {
                    perLab.add(m / MIB);
                    total += m;
                }
            }
            List<Double> idle = idleCpu(labs);
            StringBuilder report = new StringBuilder();
            report.append(String.format(
                    "%d 2-node UML labs asked for at once, %d started at a time: all ready after %.1f s, %d failed%n%n",
                    LABS, workers, allReady / 1000, failures.size()));
            report.append("| measurement | runs | p50 | p95 | min | max |\n|---|---|---|---|---|---|\n");
            if (!starts.isEmpty()) {
                report.append(Stats.of(starts).row("one lab's start (queueing excluded), ms"))
                        .append('\n');
            }
            if (!perLab.isEmpty()) {
                report.append(Stats.of(perLab).row("one lab's container memory once all were ready, MiB"))
                        .append('\n');
            }
            if (!idle.isEmpty()) {
                report.append(Stats.of(idle)
                                .row("one lab's CPU at rest (nobody in it, over " + IDLE.toSeconds()
                                        + " s), millicores"))
                        .append('\n');
            }
            report.append(String.format("%n- memory of all the labs' containers: %.0f MiB%n", total / MIB));
            report.append(String.format(
                    "- CPU of all the labs at rest: %.2f cores%n",
                    idle.stream().mapToDouble(Double::doubleValue).sum() / 1000));
            failures.forEach(f -> report.append("- failed: ").append(f).append('\n'));
            report.append("- load average ")
                    .append(loadBefore)
                    .append(" before, ")
                    .append(loadAverage())
                    .append(" after\n");
            Path out = Path.of("target/benchmarks/uml-class.md");
            Files.createDirectories(out.getParent());
            Files.writeString(out, report);
            System.out.println(report);
            assertThat(Files.size(out)).isPositive();
        } finally {
            starter.shutdownNow();
            for (String id : labs) {
                uml.stop(id);
            }
        }
    }

    private static String loadAverage() {
        return String.format(
                "%.1f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    /** How long the labs' CPU at rest is read over, after {@link #SETTLE}. */
    private static final Duration IDLE = Duration.ofSeconds(30);
    /** Time for the last labs' starts to settle before their CPU at rest is read. */
    private static final Duration SETTLE = Duration.ofSeconds(10);

    /** Each lab's CPU while nobody uses it, from its container's control group, in millicores. */
    private List<Double> idleCpu(List<String> labs) throws IOException, InterruptedException {
        Thread.sleep(SETTLE.toMillis());
        long[] before = new long[labs.size()];
        for (int i = 0; i < labs.size(); i++) {
            before[i] = LabContainers.cpuNanos(docker, Map.of("tclab.lab", labs.get(i)));
        }
        long start = System.nanoTime();
        Thread.sleep(IDLE.toMillis());
        double seconds = (System.nanoTime() - start) / 1e9;
        List<Double> millicores = new ArrayList<>();
        for (int i = 0; i < labs.size(); i++) {
            long after = LabContainers.cpuNanos(docker, Map.of("tclab.lab", labs.get(i)));
            if (before[i] > 0 && after >= before[i]) {
                millicores.add((after - before[i]) / 1e6 / seconds);
            }
        }
        return millicores;
    }
}
