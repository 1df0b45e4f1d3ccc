package dev.tclab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.httpclient5.ApacheDockerHttpClient;
import dev.tclab.lab.PackagedApp;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A class grading a User-Mode Linux lesson at once, for docs/BENCHMARKS.md, not a test of figures: runs only with
 * {@code mvn -B -Pbenchmark verify -Dit.test=UmlClassCheckBenchmark [-Dbench.learners=30]} and writes
 * target/benchmarks/uml-class-check.md.
 * <p>
 * A UML lab's packets are run by its own kernel, an ordinary process on the host's cores, so what a flow measures there
 * depends on the CPU the host has left. Charged by its rate, a UML flow took 1/20 of a measurement slot and a class got
 * wrong verdicts; it takes at least a quarter of one on UML 7.2 ({@code MeasurementCost.inOwnKernel}). This benchmark
 * asks the question that matters for grading: do {@code bench.learners} learners of bufferbloat-upload
 * ({@code kernel: auto}, so UML on a host without CAKE) who press Check at the same moment get the verdicts and figures
 * one learner alone gets in the same run? Each learner starts a lab, checks step 1 (the ping under an unshaped upload,
 * recorded as the baseline), shapes the gw with the step's CAKE solution in a terminal of the gw, and checks step 2;
 * the class does each Check all at once. The packaged app runs with its defaults but for the per-address quotas a
 * classroom behind one address needs. It fails when a learner fails or a verdict differs from alone. With
 * {@code -Dbench.wrong=N} the last N learners shape the gw above the line instead, and their step 2 must fail.
 */
@Tag("benchmark")
class UmlClassCheckBenchmark {

    private static final int LEARNERS = Integer.getInteger("bench.learners", 30);
    /**
     * How many of the class (the last ones) shape the gw wrongly, above the line's 5 Mbit/s, so that the queue stays in
     * the modem: their step 2 must fail, beside the others' passing ({@code -Dbench.wrong=30}: the whole class).
     */
    private static final int WRONG = Math.min(LEARNERS, Integer.getInteger("bench.wrong", 0));
    /** The wrong shaper: the solution's command with a bandwidth above the line's. */
    private static final String WRONG_BANDWIDTH = "5500kbit";

    private static final String LESSON = "bufferbloat-upload";
    private static final Path STEPS = Path.of("src/main/resources/lessons", LESSON, "steps");
    private static final List<String> STEP_IDS = List.of("feel-the-bloat", "shape-the-gw");
    private static final List<String> FIGURES = List.of("up.mbps", "lat.avg_ms");
    private static final String HOST = "bench";
    private static final String HOST_PASSWORD = "uml class benchmark host password";
    private static final Duration START_TIMEOUT = Duration.ofMinutes(5);
    private static final Duration CHECK_TIMEOUT = Duration.ofMinutes(10);
    private static final Duration SHELL_TIMEOUT = Duration.ofSeconds(60);

    private final ExecutorService threads = Executors.newCachedThreadPool();

    @Test
    void aClassChecksAUmlLessonAtOnce() throws Exception {
        String shape = solution(STEPS.resolve("02-shape-the-gw.md"));
        Path work = Path.of(
                "target/benchmarks/uml-class-check-work",
                UUID.randomUUID().toString().substring(0, 8));
        Files.createDirectories(work);
        String instance = System.getenv().getOrDefault("_TEST_TCLAB_INSTANCE", "tclab-test") + "-umlclass";
        PackagedApp app = new PackagedApp(work.resolve("data"), instance, work)
                .property("tclab.lab.max-running", Integer.toString(Math.max(30, LEARNERS + 1)))
                .property("tclab.quota.live-labs-per-address", Integer.toString(LEARNERS + 1))
                .property("tclab.quota.start-burst-per-address", Integer.toString(LEARNERS + 1));
        String loadBefore = loadAverage();
        Instant began = Instant.now();
        app.runCommand(HOST_PASSWORD + "\n", "host", "add", HOST);
        app.start();
        try (DockerClient docker = dockerClient()) {
            ClassApi api = new ClassApi(app.base());
            String code = api.createEvent(api.signIn(HOST, HOST_PASSWORD), LESSON, LEARNERS + 1);
            Map<String, String> labels = Map.of("tclab.instance", instance);

            List<Learner> alone = List.of(new Learner(app.base(), "alone"));
            List<Learner> learners = new ArrayList<>();
            for (int i = 1; i <= LEARNERS; i++) {
                learners.add(new Learner(app.base(), "learner-" + i));
            }
            StringBuilder report = new StringBuilder("# A class checks a UML lesson at once: " + LEARNERS
                    + " learners, " + LESSON + (WRONG > 0 ? ", the last " + WRONG + " shaping above the line" : "")
                    + "\n\nRun " + began.truncatedTo(ChronoUnit.MINUTES)
                    + ", load average " + loadBefore + " before.\n\n");
            List<String> failures = new ArrayList<>();
            try {
                List<Step> aloneSteps = lesson(alone, 0, code, shape, docker, labels);
                List<Step> classSteps = lesson(learners, WRONG, code, shape, docker, labels);
                report.append("| step | who | verdicts | ")
                        .append(String.join(
                                " | ",
                                FIGURES.stream().map(f -> f + " p50 (min-max)").toList()))
                        .append(" | Check to verdict p50 / p95 (ms) | waited for a slot p50 / p95 (ms) | lab"
                                + " containers' CPU per learner (core-s) |\n| --- | --- | --- | ")
                        .append("--- | ".repeat(FIGURES.size()))
                        .append("--- | --- | --- |\n");
                for (int s = 0; s < STEP_IDS.size(); s++) {
                    report.append(aloneSteps.get(s).row(STEP_IDS.get(s), "alone"));
                    report.append(classSteps.get(s).row(STEP_IDS.get(s), "class"));
                }
                report.append("\nLoad average after: ").append(loadAverage()).append(".\n");
                Learner one = alone.get(0);
                if (one.failed()) {
                    failures.add("alone: " + one.failure());
                }
                for (Learner learner : learners) {
                    if (learner.failed()) {
                        failures.add(learner.name() + ": " + learner.failure());
                    }
                }
                for (int s = 0; s < STEP_IDS.size(); s++) {
                    String verdictAlone = aloneSteps.get(s).verdicts().get(0);
                    List<String> verdicts = classSteps.get(s).verdicts();
                    for (int i = 0; i < verdicts.size(); i++) {
                        boolean wrong = s == 1 && wrong(i);
                        String expected = wrong ? "failed" : verdictAlone;
                        if (!verdicts.get(i).equals(expected)) {
                            failures.add(learners.get(i).name() + " " + STEP_IDS.get(s) + ": verdict " + verdicts.get(i)
                                    + (wrong
                                            ? " (a shaper above the line must fail)"
                                            : " (alone: " + verdictAlone + ")"));
                        }
                    }
                }
            } finally {
                alone.forEach(Learner::leave);
                learners.forEach(Learner::leave);
            }
            if (!failures.isEmpty()) {
                report.append("\nDiffering or failed:\n");
                failures.forEach(f -> report.append("- ").append(f).append('\n'));
            }
            Path out = Path.of("target/benchmarks/uml-class-check.md");
            Files.createDirectories(out.getParent());
            Files.writeString(out, report);
            System.out.println(report);
            assertThat(failures)
                    .as("failed or differing learners (see " + out + ")")
                    .isEmpty();
        } finally {
            app.stop();
            threads.shutdownNow();
        }
    }

    /**
     * The lesson's two graded steps for every learner, each Check pressed by all at the same moment; the last
     * {@code wrong} of them shape above the line.
     */
    private List<Step> lesson(
            List<Learner> learners,
            int wrong,
            String code,
            String shape,
            DockerClient docker,
            Map<String, String> labels)
            throws Exception {
        AtOnce.all(threads, learners, l -> l.join(code));
        AtOnce.all(threads, learners, l -> l.startLab(LESSON, START_TIMEOUT));
        List<Step> steps = new ArrayList<>();
        steps.add(check(learners, STEP_IDS.get(0), docker, labels));
        String aboveTheLine = shape.replaceAll("bandwidth \\S+", "bandwidth " + WRONG_BANDWIDTH);
        List<Learner> right = learners.subList(0, learners.size() - wrong);
        AtOnce.all(threads, learners, l -> l.runOn("gw", right.contains(l) ? shape : aboveTheLine, SHELL_TIMEOUT));
        steps.add(check(learners, STEP_IDS.get(1), docker, labels));
        return steps;
    }

    private Step check(List<Learner> learners, String step, DockerClient docker, Map<String, String> labels)
            throws Exception {
        long cpuBefore = LabContainers.cpuNanos(docker, labels);
        AtOnce.all(threads, learners, l -> l.check(step, CHECK_TIMEOUT));
        double cpuPerLearner = (LabContainers.cpuNanos(docker, labels) - cpuBefore) / 1e9 / learners.size();
        List<String> verdicts = new ArrayList<>();
        Map<String, List<Double>> figures = new LinkedHashMap<>();
        List<Double> turnaround = new ArrayList<>();
        List<Double> slotWait = new ArrayList<>();
        for (Learner learner : learners) {
            verdicts.add(learner.failed() ? "failed" : learner.verdict);
            for (String figure : FIGURES) {
                Double value = learner.figures.get(figure);
                if (value != null) {
                    figures.computeIfAbsent(figure, f -> new ArrayList<>()).add(value);
                }
            }
            if (!learner.failed()) {
                turnaround.add(learner.checkQueuedMillis + learner.slotWaitMillis + learner.measureMillis);
                slotWait.add(learner.slotWaitMillis);
            }
        }
        return new Step(verdicts, figures, turnaround, slotWait, cpuPerLearner);
    }

    /** One step's Checks by a group of learners: verdicts in learner order, figures, times, CPU. */
    private record Step(
            List<String> verdicts,
            Map<String, List<Double>> figures,
            List<Double> turnaroundMillis,
            List<Double> slotWaitMillis,
            double cpuPerLearner) {

        String row(String step, String who) {
            Map<String, Long> counts = new TreeMap<>();
            verdicts.forEach(v -> counts.merge(v, 1L, Long::sum));
            StringBuilder row = new StringBuilder("| " + step + " | " + who + " | " + counts + " | ");
            for (String figure : FIGURES) {
                List<Double> values = figures.get(figure);
                if (values == null || values.isEmpty()) {
                    row.append("- | ");
                } else {
                    Stats stats = Stats.of(values);
                    row.append(String.format("%.2f (%.2f-%.2f) | ", stats.p50(), stats.min(), stats.max()));
                }
            }
            row.append(times(turnaroundMillis))
                    .append(" | ")
                    .append(times(slotWaitMillis))
                    .append(" | ");
            return row.append(String.format("%.2f |%n", cpuPerLearner)).toString();
        }

        private static String times(List<Double> millis) {
            if (millis.isEmpty()) {
                return "-";
            }
            Stats stats = Stats.of(millis);
            return String.format("%.0f / %.0f", stats.p50(), stats.p95());
        }
    }

    /** The step's CAKE solution for the gw, as the self-test applies it on a kernel with CAKE. */
    /** Whether the class's learner at {@code index} shapes wrongly. */
    private static boolean wrong(int index) {
        return index >= LEARNERS - WRONG;
    }

    private static String solution(Path step) throws IOException {
        Matcher block = Pattern.compile("```solution gw if=qdisc:cake\n(.*?)\n```", Pattern.DOTALL)
                .matcher(Files.readString(step));
        if (!block.find()) {
            throw new IllegalStateException(step + " has no CAKE solution block for the gw");
        }
        return block.group(1).trim();
    }

    private static String loadAverage() {
        return String.format(
                "%.1f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    private static DockerClient dockerClient() {
        var config = DefaultDockerClientConfig.createDefaultConfigBuilder().build();
        return DockerClientImpl.getInstance(
                config,
                new ApacheDockerHttpClient.Builder()
                        .dockerHost(config.getDockerHost())
                        .maxConnections(64)
                        .build());
    }
}
