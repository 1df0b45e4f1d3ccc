package dev.tclab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.config.TclabConfig;
import dev.tclab.lab.TestTopologies;
import dev.tclab.runtime.LabProgressListener;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.runtime.LabSpec;
import dev.tclab.runtime.RuntimeAdapter;
import dev.tclab.runtime.topology.Topology;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.common.annotation.Identifier;
import jakarta.inject.Inject;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Lab start time to ready, next to its floors measured in the same run, alternating so that machine noise falls on
 * all alike: the fastest way found to do the same container work on the same engine ({@link DockerRunFloor}: the
 * lab's nodes and sidecars), its nodes alone, and its nodes as bare containers. The app's start is split by the stages
 * it reports: nodes created and running (their sidecars created, and each started as soon as its node runs), links
 * wired, then the nodes' setup and the sidecars' starts finished. The 2-node lab in User-Mode Linux the same way,
 * beside its own floor ({@link UmlBootFloor}); {@code -Dbench.runtimes=uml} (or {@code docker}) times only one. Runs only with {@code mvn -Pbenchmark verify};
 * writes target/benchmarks/lab-start.md.
 */
@QuarkusTest
class LabStartBenchmark {

    private static final int RUNS = Integer.getInteger("bench.runs", 25);
    private static final int WARMUP = 3;
    /** Which runtimes' labs to time: {@code docker}, {@code uml} or both (the default). */
    private static final List<String> RUNTIMES =
            List.of(System.getProperty("bench.runtimes", "docker,uml").split(","));

    @Inject
    @Identifier("uml")
    RuntimeAdapter uml;

    @Inject
    LabRuntime runtime;

    @Inject
    TclabConfig config;

    private DockerRunFloor floor;

    @Test
    void labStartAgainstRawCreateAndStart() throws Exception {
        floor = new DockerRunFloor(config.lab());
        String loadBefore = loadAverage();
        StringBuilder report = new StringBuilder(
                "| measurement | runs | p50 ms | p95 ms | min ms | max ms |\n|---|---|---|---|---|---|\n");
        List<String> ratios = new ArrayList<>();
        for (String name : RUNTIMES.contains("docker") ? List.of("two-node", "four-node") : List.<String>of()) {
            Topology topology = TestTopologies.load(name);
            Map<String, List<Double>> samples = new LinkedHashMap<>();
            for (int i = 0; i < RUNS + WARMUP; i++) {
                Map<String, Double> round = new LinkedHashMap<>();
                round.put(
                        "floor: docker run -d, nodes and sidecars",
                        cliRun(topology, DockerRunFloor.Kind.NODES_AND_SIDECARS));
                round.putAll(appStart(topology));
                round.put("floor: docker run -d, nodes only", cliRun(topology, DockerRunFloor.Kind.NODES));
                round.put(
                        "floor: docker run -d, bare nodes (no limits, read-only root, tmpfs or init)",
                        cliRun(topology, DockerRunFloor.Kind.BARE_NODES));
                if (i >= WARMUP) {
                    round.forEach((what, ms) -> samples.computeIfAbsent(what, k -> new ArrayList<>())
                            .add(ms));
                }
            }
            samples.forEach((what, ms) ->
                    report.append(Stats.of(ms).row(name + " " + what)).append('\n'));
            Stats app = Stats.of(samples.get(APP));
            Stats all = Stats.of(samples.get("floor: docker run -d, nodes and sidecars"));
            Stats nodes = Stats.of(samples.get("floor: docker run -d, nodes only"));
            ratios.add(String.format(
                    "%s: app / floor of its containers p50 %.2f, p95 %.2f; app / floor of its nodes"
                            + " p50 %.2f, p95 %.2f",
                    name,
                    app.p50() / all.p50(),
                    app.p95() / all.p95(),
                    app.p50() / nodes.p50(),
                    app.p95() / nodes.p95()));
        }
        if (RUNTIMES.contains("uml")) {
            ratios.add(umlTwoNode(report));
        }
        report.append('\n');
        ratios.forEach(r -> report.append("- ").append(r).append('\n'));
        report.append("- load average ")
                .append(loadBefore)
                .append(" before, ")
                .append(loadAverage())
                .append(" after\n");
        Path out = Path.of("target/benchmarks/lab-start.md");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);
        System.out.println(report);
        assertThat(Files.size(out)).isPositive();
        floor.close();
    }

    private static final String APP = "lab, tclab start to ready";

    /**
     * The 2-node lab in User-Mode Linux beside its floor (the same kernel and container settings, its init printing
     * one line), alternating; returns the ratio line.
     */
    private String umlTwoNode(StringBuilder report) throws Exception {
        Topology topology = TestTopologies.load("two-node");
        UmlBootFloor umlFloor =
                new UmlBootFloor(config.lab().umlImage(), config.lab().umlMemoryMib());
        Map<String, List<Double>> samples = new LinkedHashMap<>();
        for (int i = 0; i < RUNS + 1; i++) {
            Map<String, Double> round = new LinkedHashMap<>();
            round.put("UML floor: docker run of the kernel to its init's first line", umlFloor.millis());
            round.putAll(umlStart(topology));
            if (i >= 1) {
                round.forEach((what, ms) ->
                        samples.computeIfAbsent(what, k -> new ArrayList<>()).add(ms));
            }
        }
        samples.forEach((what, ms) ->
                report.append(Stats.of(ms).row("two-node " + what)).append('\n'));
        Stats app = Stats.of(samples.get("UML " + APP));
        Stats kernel = Stats.of(samples.get("UML floor: docker run of the kernel to its init's first line"));
        return String.format(
                "two-node UML: app / floor of its kernel p50 %.2f, p95 %.2f",
                app.p50() / kernel.p50(), app.p95() / kernel.p95());
    }

    /** The app's start to ready, and its stages as the Docker runtime reports them. */
    private Map<String, Double> appStart(Topology topology) throws Exception {
        return timedStart(
                runtime,
                topology,
                APP,
                "lab, stage: nodes created and running",
                "lab, stage: links wired",
                "lab, stage: nodes set up and sidecars running");
    }

    /** The same in User-Mode Linux, whose stages are the kernel's boot, one request for the nodes, one for setups. */
    private Map<String, Double> umlStart(Topology topology) throws Exception {
        return timedStart(
                uml,
                topology,
                "UML " + APP,
                "UML lab, stage: kernel booted, its agent answering",
                "UML lab, stage: nodes, links and sysctls made",
                "UML lab, stage: setup commands run");
    }

    /** A start to ready by {@code lab}, and the time to each stage it reports, under the names given. */
    private static Map<String, Double> timedStart(
            LabRuntime lab, Topology topology, String ready, String creating, String wiring, String configuring)
            throws Exception {
        String id = "b" + UUID.randomUUID().toString().substring(0, 8);
        Map<LabProgressListener.Stage, Long> reached = new EnumMap<>(LabProgressListener.Stage.class);
        long t0 = System.nanoTime();
        lab.start(
                new LabSpec(id, topology, "bench", topology.name()),
                (stage, detail) -> reached.putIfAbsent(stage, System.nanoTime()));
        long done = System.nanoTime();
        lab.stop(id);
        Map<String, Double> times = new LinkedHashMap<>();
        times.put(ready, (done - t0) / 1e6);
        times.put(creating, millis(t0, reached.get(LabProgressListener.Stage.WIRING)));
        times.put(
                wiring,
                millis(
                        reached.get(LabProgressListener.Stage.WIRING),
                        reached.get(LabProgressListener.Stage.CONFIGURING)));
        times.put(configuring, millis(reached.get(LabProgressListener.Stage.CONFIGURING), done));
        return times;
    }

    private static double millis(long from, long to) {
        return (to - from) / 1e6;
    }

    /** The floor, timed as {@link DockerRunFloor#start} times it; its containers removed after. */
    private double cliRun(Topology topology, DockerRunFloor.Kind kind) {
        DockerRunFloor.Run run = floor.start(topology, kind);
        floor.remove(run);
        return run.millis();
    }

    private static String loadAverage() {
        return String.format(
                "%.1f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
}
