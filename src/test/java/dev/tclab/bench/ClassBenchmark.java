package dev.tclab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.httpclient5.ApacheDockerHttpClient;
import dev.tclab.config.TclabConfig;
import dev.tclab.lab.PackagedApp;
import dev.tclab.runtime.topology.Topology;
import dev.tclab.runtime.topology.TopologyParser;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A whole class at once, for docs/BENCHMARKS.md ("A class at once"), not a test of figures: runs only with
 * {@code mvn -B -Pbenchmark verify -Dit.test=ClassBenchmark [-Dbench.learners=30]} and writes
 * target/benchmarks/class.md. The packaged app runs as its own process (so /proc tells its CPU and memory apart from
 * this client's), and {@code bench.learners} simulated {@link Learner}s drive it from this JVM over HTTP and
 * WebSockets: join a workshop, start a tbf-basics lab at the same moment (cold), open its terminal and statistics,
 * type, shape the link with the lesson's own command, then all press Check on the same step at once. Last, the app
 * restarts with a warm pool of the class's size and, once it is full, every learner presses Start at once. One learner
 * does all of it alone first, in the same run, for the verdict and rate the class must match. Each figure stands
 * beside its floor, measured in the same run. It fails only when a learner fails, or grades differ from alone.
 */
@Tag("benchmark")
class ClassBenchmark {

    private static final int LEARNERS = Integer.getInteger("bench.learners", 30);
    private static final int KEYS = Integer.getInteger("bench.keys", 100);
    /** Between two keystrokes of one learner: ten keys a second, a quick typist. */
    private static final long KEY_PAUSE_MILLIS = 100;

    private static final Duration WINDOW = Duration.ofSeconds(Integer.getInteger("bench.window-seconds", 20));
    private static final String LESSON = "tbf-basics";
    private static final String STEP = "shape";
    private static final Path LESSON_DIR = Path.of("src/main/resources/lessons", LESSON);
    private static final String HOST = "bench";
    private static final String HOST_PASSWORD = "class benchmark host password";
    private static final Duration START_TIMEOUT = Duration.ofMinutes(5);
    private static final Duration CHECK_TIMEOUT = Duration.ofMinutes(10);
    /** Only the Starts from the warm pool (-Dbench.pool-only=true): no learner alone, no cold class. */
    private static final boolean POOL_ONLY = Boolean.getBoolean("bench.pool-only");
    /** Only the cold class's Starts beside their floor (-Dbench.cold-only=true): about 3 minutes. */
    private static final boolean COLD_ONLY = Boolean.getBoolean("bench.cold-only");

    private static final String ACCESS_LOG_MARK = "request: ";
    /** The request line, its status and the server's own time for it (%D needs record-request-start-time). */
    private static final String ACCESS_LOG_PATTERN = ACCESS_LOG_MARK + "%r %s %D ms";

    private final ExecutorService threads = Executors.newCachedThreadPool();
    private DockerClient docker;
    private PackagedApp app;
    private ProcessUsage appUsage;
    private final List<ProcessUsage> engineDaemons = engineDaemons();
    private String instance;

    @Test
    void aClassAtOnce() throws Exception {
        // The app's defaults for lab containers, read as the app reads them (the floor runs the same containers).
        TclabConfig config = new SmallRyeConfigBuilder()
                .withMapping(TclabConfig.class)
                .withConverter(Duration.class, 100, new DurationConverter())
                .build()
                .getConfigMapping(TclabConfig.class);
        docker = dockerClient();
        Topology topology = TopologyParser.parse(LESSON + "/lab.yml", Files.readString(LESSON_DIR.resolve("lab.yml")));
        String shape = solution(LESSON_DIR.resolve("steps/02-shape.md"));
        Path work = Path.of(
                "target/benchmarks/class-work", UUID.randomUUID().toString().substring(0, 8));
        Files.createDirectories(work);
        instance = System.getenv().getOrDefault("_TEST_TCLAB_INSTANCE", "tclab-test") + "-class";
        // A class behind one address (this client) needs the per-address limits raised to the class size, as a host
        // does for a classroom behind one NAT address; every learner plus the one alone gets a slot and a seat.
        app = new PackagedApp(work.resolve("data"), instance, work)
                .property("tclab.lab.max-running", Integer.toString(Math.max(30, LEARNERS + 1)))
                .property("tclab.quota.live-labs-per-address", Integer.toString(LEARNERS + 1))
                .property("tclab.quota.start-burst-per-address", Integer.toString(LEARNERS + 1));
        // Settings to compare, e.g. -Dbench.app.tclab.lab.pool-refill-quiet=0s (given to the app without "bench.app.").
        System.getProperties().stringPropertyNames().stream()
                .filter(k -> k.startsWith("bench.app."))
                .sorted()
                .forEach(k -> app.property(k.substring("bench.app.".length()), System.getProperty(k)));
        // JVM options for the app, e.g. -Dbench.app-jvm=-XX:StartFlightRecording=filename=/tmp/app.jfr to profile it.
        String jvm = System.getProperty("bench.app-jvm", "").trim();
        if (!jvm.isEmpty()) {
            for (String option : jvm.split("\\s+")) {
                app.jvmOption(option);
            }
        }
        String loadBefore = loadAverage();
        Instant began = Instant.now();
        app.runCommand(HOST_PASSWORD + "\n", "host", "add", HOST);
        app.start();
        appUsage = new ProcessUsage(app.pid());
        try (DockerRunFloor startFloor = new DockerRunFloor(config.lab())) {
            ClassApi api = new ClassApi(app.base());
            // Seats for the learner alone and two classes (each learner of a run is a new one).
            String code = api.createEvent(api.signIn(HOST, HOST_PASSWORD), LESSON, Math.min(500, 2 * LEARNERS + 1));
            if (POOL_ONLY) {
                PoolRun pooled = fromThePool(api, code);
                String report = "# Class benchmark: " + LEARNERS + " learners, tbf-basics, from the pool only\n\n"
                        + "Run " + began.truncatedTo(java.time.temporal.ChronoUnit.MINUTES) + ", load average "
                        + loadBefore + " before.\n\n" + pooled.markdown();
                Path out = Path.of("target/benchmarks/class-pool.md");
                Files.createDirectories(out.getParent());
                Files.writeString(out, report);
                System.out.println(report);
                assertThat(pooled.failures())
                        .as("failed learners (see " + out + ")")
                        .isEmpty();
                return;
            }
            if (COLD_ONLY) {
                List<String> failures = new ArrayList<>();
                String report = coldClass(api, code, topology, startFloor, began, loadBefore, failures);
                Path out = Path.of("target/benchmarks/class-cold.md");
                Files.createDirectories(out.getParent());
                Files.writeString(out, report);
                System.out.println(report);
                assertThat(failures).as("failed learners (see " + out + ")").isEmpty();
                return;
            }
            ClassRun alone = run(api, code, "alone", "alone", 1, topology, shape, startFloor);
            List<ClassRun> classes = new ArrayList<>();
            classes.add(run(api, code, "cold start", "cold", LEARNERS, topology, shape, startFloor));
            // A class run of another kind is one more call here; Starts from a warm pool are measured last (below).
            PoolRun pooled = fromThePool(api, code);
            List<String> failures = new ArrayList<>(alone.failures());
            failures.addAll(pooled.failures());
            Learner one = alone.learners().get(0);
            for (ClassRun together : classes) {
                failures.addAll(together.failures());
                for (Learner learner : together.learners()) {
                    if (!learner.failed() && !String.valueOf(learner.verdict).equals(one.verdict)) {
                        failures.add(learner.name() + ": verdict " + learner.verdict + " (alone: " + one.verdict
                                + "), measured " + learner.measuredMbps + " Mbit/s");
                    }
                }
            }
            String report = new ClassReport(LEARNERS, KEYS, began, loadBefore, loadAverage(), alone, classes, failures)
                            .markdown()
                    + pooled.markdown();
            Path out = Path.of("target/benchmarks/class.md");
            Files.createDirectories(out.getParent());
            Files.writeString(out, report);
            System.out.println(report);
            assertThat(failures)
                    .as("failed learners (see target/benchmarks/class.md)")
                    .isEmpty();
        } finally {
            app.stop();
            removeLabs();
            threads.shutdownNow();
            docker.close();
        }
    }

    /** One class of {@code size} learners through every phase; their timings, the floors and the resources used. */
    private ClassRun run(
            ClassApi api,
            String code,
            String label,
            String prefix,
            int size,
            Topology topology,
            String shape,
            DockerRunFloor startFloor)
            throws Exception {
        List<Learner> learners = new ArrayList<>();
        for (int i = 1; i <= size; i++) {
            learners.add(new Learner(app.base(), prefix + "-" + i));
        }
        ClassRun.Builder run = new ClassRun.Builder(label, learners, appUsage);
        try {
            all(learners, l -> l.join(code));
            // The start floor first, on the same idle engine the cold starts find: every lab's containers at once.
            List<DockerRunFloor.Run> floorRuns = Collections.synchronizedList(new ArrayList<>());
            allAtOnce(learners.size(), i -> floorRuns.add(startFloor.start(topology)));
            floorRuns.forEach(startFloor::remove);
            floorRuns.forEach(f -> run.startFloorMillis.add(f.millis()));

            Metrics metricsBefore = Metrics.of(api.metrics());
            Usage before = usage();
            all(learners, l -> l.startLab(LESSON, START_TIMEOUT));
            run.phase("start", before, usage());
            run.serverStart = Metrics.of(api.metrics()).minus(metricsBefore);

            before = usage();
            Thread.sleep(WINDOW.toMillis());
            run.phase("labs running, nobody watching", before, usage());
            run.labMemoryBytes = LabContainers.memoryBytes(docker, Map.of("tclab.instance", instance));

            all(learners, Learner::openSockets);
            before = usage();
            all(learners, l -> l.type(KEYS, KEY_PAUSE_MILLIS));
            run.phase("typing (and statistics watched)", before, usage());
            all(learners, l -> {
                long[] floor = ExecAttachEcho.latencies(
                        docker, container(l.labId(), "client", "node"), KEYS, KEY_PAUSE_MILLIS);
                for (long nanos : floor) {
                    run.echoFloorMillis.add(nanos / 1e6);
                }
            });
            all(learners, l -> l.run(shape, Duration.ofSeconds(30)));

            before = usage();
            Thread.sleep(WINDOW.toMillis());
            run.phase("labs watched (statistics at 1 Hz)", before, usage());
            run.labMemoryWatchedBytes = LabContainers.memoryBytes(docker, Map.of("tclab.instance", instance));

            metricsBefore = Metrics.of(api.metrics());
            before = usage();
            all(learners, l -> l.check(STEP, CHECK_TIMEOUT));
            run.phase("all press Check", before, usage());
            run.serverCheck = Metrics.of(api.metrics()).minus(metricsBefore);

            all(learners, l -> {
                long t0 = System.nanoTime();
                double mbps = iperf3(container(l.labId(), "client", "sidecar"));
                run.checkFloor((System.nanoTime() - t0) / 1e6, mbps);
            });
            for (Learner learner : learners) {
                if (!learner.failed() && learner.statsDelayMillis.isEmpty()) {
                    learner.fail("no statistics frame arrived");
                }
            }
        } finally {
            for (Learner learner : learners) {
                learner.leave();
            }
        }
        return run.build();
    }

    /**
     * The cold class's Starts alone: the floor (every lab's containers by {@code docker run -d} at once) on the idle
     * engine, then every learner presses Start at once and polls as the page does; beside the client's times, the
     * app's own timings of its engine calls by kind and the CPU the engine and the machine spent on the burst.
     */
    private String coldClass(
            ClassApi api,
            String code,
            Topology topology,
            DockerRunFloor startFloor,
            Instant began,
            String loadBefore,
            List<String> failures)
            throws Exception {
        List<Learner> learners = new ArrayList<>();
        for (int i = 1; i <= LEARNERS; i++) {
            learners.add(new Learner(app.base(), "cold-" + i));
        }
        try {
            all(learners, l -> l.join(code));
            List<DockerRunFloor.Run> floorRuns = Collections.synchronizedList(new ArrayList<>());
            Usage floorBefore = usage();
            allAtOnce(learners.size(), i -> floorRuns.add(startFloor.start(topology)));
            Usage floorAfter = usage();
            floorRuns.forEach(startFloor::remove);
            List<Double> floor =
                    floorRuns.stream().map(DockerRunFloor.Run::millis).toList();

            String loadStarts = loadAverage();
            String metricsBefore = api.metrics();
            Usage before = usage();
            all(learners, l -> l.startLab(LESSON, START_TIMEOUT));
            Usage after = usage();
            String metricsAfter = api.metrics();
            learners.stream().filter(Learner::failed).forEach(l -> failures.add(l.name() + ": " + l.failure()));
            List<Learner> ran = learners.stream().filter(l -> !l.failed()).toList();
            Metrics server = Metrics.of(metricsAfter).minus(Metrics.of(metricsBefore));
            StringBuilder md = new StringBuilder(
                    "# Class benchmark: " + LEARNERS + " learners press Start at once, cold (no pool), tbf-basics\n\n");
            md.append("Run ")
                    .append(began.truncatedTo(java.time.temporal.ChronoUnit.MINUTES))
                    .append(", load average ")
                    .append(loadBefore)
                    .append(" before the app, ")
                    .append(loadStarts)
                    .append(" before the Starts, ")
                    .append(loadAverage())
                    .append(" after. Failures: ")
                    .append(failures.size())
                    .append(".\n\n| ms | n | p50 | p95 | min | max |\n| --- | --- | --- | --- | --- | --- |\n");
            if (!ran.isEmpty()) {
                md.append(Stats.of(ran.stream().map(l -> l.queueWaitMillis).toList())
                                .row("waiting for a start worker or slot"))
                        .append('\n')
                        .append(Stats.of(ran.stream().map(l -> l.startMillis).toList())
                                .row("start until running"))
                        .append('\n')
                        .append(Stats.of(ran.stream()
                                        .map(l -> l.queueWaitMillis + l.startMillis)
                                        .toList())
                                .row("Start pressed to running"))
                        .append('\n');
            }
            md.append(Stats.of(floor).row("floor: `docker run -d` of every lab's containers at once, per lab"))
                    .append("\n\nThe burst took ")
                    .append(seconds(before, after))
                    .append(" (the floor ")
                    .append(seconds(floorBefore, floorAfter))
                    .append(") ; CPU seconds in it: dockerd and containerd ")
                    .append(cpu(after.daemonsCpuNanos() - before.daemonsCpuNanos()))
                    .append(" (floor ")
                    .append(cpu(floorAfter.daemonsCpuNanos() - floorBefore.daemonsCpuNanos()))
                    .append("), the whole machine ")
                    .append(cpu(after.machineBusyNanos() - before.machineBusyNanos()))
                    .append(" (floor ")
                    .append(cpu(floorAfter.machineBusyNanos() - floorBefore.machineBusyNanos()))
                    .append("), the app ")
                    .append(cpu(after.appCpuNanos() - before.appCpuNanos()))
                    .append(". The server's means: queue wait ")
                    .append(server.mean("tclab_lab_queue_wait_seconds"))
                    .append(", lab start ")
                    .append(server.mean("tclab_lab_start_seconds"))
                    .append(".\n\n")
                    .append(EngineCallTable.markdown(
                            EngineCallTable.of(metricsAfter).minus(EngineCallTable.of(metricsBefore)),
                            learners.size()));
            return md.toString();
        } finally {
            for (Learner learner : learners) {
                learner.leave();
            }
        }
    }

    private static String seconds(Usage from, Usage to) {
        return String.format("%.1f s", (to.nanoTime() - from.nanoTime()) / 1e9);
    }

    private static String cpu(long nanos) {
        return String.format("%.1f s", nanos / 1e9);
    }

    /**
     * The app restarted with a warm pool of the class's size; once the pool is full, every learner presses Start at
     * the same moment and opens the client's terminal; then the floors, in every lab at once. The server has room
     * for the pool's refill beside the class (as a host sizes it for a pool), so the refill runs during the class's
     * Starts: with room for the class alone (max-running of the class plus one, as before 2026-12-02) the pool could
     * start only one lab after the hand-outs, which is why this benchmark reported 0.88 s where an outside client of
     * a server with room for the refill saw 6-7 s.
     */
    private PoolRun fromThePool(ClassApi api, String code) throws Exception {
        app.stop();
        app.property("tclab.pool.\"" + LESSON + "\"", Integer.toString(LEARNERS))
                .property("tclab.lab.max-running", Integer.toString(2 * LEARNERS + 1))
                // The server's own time for each request (from reading it to writing the answer), beside the client's.
                .property("quarkus.http.access-log.enabled", "true")
                .property("quarkus.http.record-request-start-time", "true")
                .property("quarkus.http.access-log.pattern", ACCESS_LOG_PATTERN)
                .start();
        appUsage = new ProcessUsage(app.pid());
        long t0 = System.nanoTime();
        awaitPoolFull(api);
        double fillSeconds = (System.nanoTime() - t0) / 1e9;
        List<Learner> learners = new ArrayList<>();
        for (int i = 1; i <= LEARNERS; i++) {
            learners.add(new Learner(app.base(), "pooled-" + i));
        }
        try {
            all(learners, l -> l.join(code));
            String loadBefore = loadAverage();
            String before = api.metrics();
            all(learners, l -> l.startToPrompt(LESSON, START_TIMEOUT));
            String after = api.metrics();
            String loadAfter = loadAverage();
            // The HTTP floor at once, with the refill that the hand-outs asked for under way by now: each learner's
            // own client reads its lab once (GET /api/labs/{id}), the call the page polls with.
            List<Double> httpFloor = Collections.synchronizedList(new ArrayList<>());
            all(learners, l -> httpFloor.add(l.readLabMillis()));
            List<Double> floor = Collections.synchronizedList(new ArrayList<>());
            all(
                    learners,
                    l -> floor.add(ExecPrompt.millis(
                            docker, container(l.labId(), "client", "node"), "client", Duration.ofSeconds(30))));
            String log = Files.readString(app.log());
            return new PoolRun(
                    learners,
                    httpFloor,
                    floor,
                    serverMillis(log, "POST /api/labs "),
                    serverMillis(log, "GET /api/labs/"),
                    fillSeconds,
                    counter(after, "tclab_pool_handouts_total") - counter(before, "tclab_pool_handouts_total"),
                    counter(after, "tclab_pool_misses_total") - counter(before, "tclab_pool_misses_total"),
                    Math.round(gauge(after, "tclab_labs{phase=\"pooled\"}")),
                    loadBefore,
                    loadAfter);
        } finally {
            for (Learner learner : learners) {
                learner.leave();
            }
        }
    }

    /** The server's own times (ms) of the requests whose line starts so, from its access log. */
    private static List<Double> serverMillis(String log, String requestLine) {
        List<Double> millis = new ArrayList<>();
        Matcher line = Pattern.compile(
                        "access-log\\] .*" + ACCESS_LOG_MARK + Pattern.quote(requestLine) + ".* (\\d+) ms$",
                        Pattern.MULTILINE)
                .matcher(log);
        while (line.find()) {
            millis.add(Double.parseDouble(line.group(1)));
        }
        return millis;
    }

    /** Waits until the pool holds the class's size and that many lab starts are done (pooled labs ready). */
    private static void awaitPoolFull(ClassApi api) throws Exception {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            String metrics = api.metrics();
            if (gauge(metrics, "tclab_labs{phase=\"pooled\"}") >= LEARNERS
                    && gauge(metrics, "tclab_lab_start_seconds_count{outcome=\"ready\"}") >= LEARNERS) {
                return;
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException(
                "the warm pool did not fill with " + LEARNERS + " labs within " + START_TIMEOUT);
    }

    /** A series' value in the Prometheus text, 0 when absent. */
    private static double gauge(String metrics, String series) {
        Matcher line = Pattern.compile("^" + Pattern.quote(series) + " ([0-9.eE+-]+)$", Pattern.MULTILINE)
                .matcher(metrics);
        return line.find() ? Double.parseDouble(line.group(1)) : 0;
    }

    private static long counter(String metrics, String name) {
        return Math.round(gauge(metrics, name));
    }

    /** Pooled labs outlive the app by design (its next start adopts them): the benchmark removes what it left. */
    private void removeLabs() {
        for (Container c : docker.listContainersCmd()
                .withShowAll(true)
                .withLabelFilter(Map.of("tclab.instance", instance))
                .exec()) {
            try {
                docker.removeContainerCmd(c.getId()).withForce(true).exec();
            } catch (NotFoundException e) {
                // Gone already.
            }
        }
    }

    /** Every learner not failed yet does the step, all released at the same moment ({@link AtOnce}). */
    private void all(List<Learner> learners, AtOnce.LearnerStep step) throws InterruptedException {
        AtOnce.all(threads, learners, step);
    }

    private void allAtOnce(int count, IndexedTask task) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int index = i;
            done.add(threads.submit(() -> {
                go.await();
                task.run(index);
                return null;
            }));
        }
        go.countDown();
        for (Future<?> future : done) {
            future.get();
        }
    }

    private interface IndexedTask {
        void run(int index) throws Exception;
    }

    /**
     * CPU used so far by the app, by this instance's lab containers, by their shims, by the engine's daemons
     * (dockerd and containerd serve every client of the engine, so on a shared machine they count others' work too),
     * and by the whole machine: only that sees the short-lived processes of every exec (runc, its init), which none
     * of the others counts.
     */
    record Usage(
            long nanoTime,
            long appCpuNanos,
            long appRssBytes,
            long labsCpuNanos,
            long shimsCpuNanos,
            long shimsRssBytes,
            long daemonsCpuNanos,
            long machineBusyNanos) {}

    private Usage usage() throws IOException {
        Map<String, String> ours = Map.of("tclab.instance", instance);
        long[] shims = LabContainers.shims(docker, ours);
        long daemons = 0;
        for (ProcessUsage daemon : engineDaemons) {
            daemons += daemon.cpuNanos();
        }
        return new Usage(
                System.nanoTime(),
                appUsage.cpuNanos(),
                appUsage.rssBytes(),
                LabContainers.cpuNanos(docker, ours),
                shims[0],
                shims[1],
                daemons,
                machineBusyNanos());
    }

    /** CPU time the machine's cores spent busy since boot (user, nice, system, irq and softirq of /proc/stat). */
    private static long machineBusyNanos() throws IOException {
        String[] cpu = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
        long busy = 0;
        for (int i = 1; i < cpu.length && i <= 7; i++) {
            busy += i == 4 || i == 5 ? 0 : Long.parseLong(cpu[i]);
        }
        return busy * 1_000_000_000L / ProcessUsage.TICKS_PER_SECOND;
    }

    /**
     * The engine's dockerd (its pid file) and the containerd it runs, not every dockerd on the machine: another
     * session's short-lived engine would vanish between two readings.
     */
    private static List<ProcessUsage> engineDaemons() {
        try {
            long dockerd = Long.parseLong(
                    Files.readString(Path.of("/var/run/docker.pid")).trim());
            List<ProcessUsage> daemons = new ArrayList<>(List.of(new ProcessUsage(dockerd)));
            ProcessHandle.of(dockerd).stream()
                    .flatMap(ProcessHandle::children)
                    .filter(p -> p.info()
                            .command()
                            .map(c -> c.endsWith("/containerd"))
                            .orElse(false))
                    .forEach(p -> daemons.add(new ProcessUsage(p.pid())));
            return daemons;
        } catch (IOException | NumberFormatException e) {
            throw new IllegalStateException("cannot find the engine's dockerd by /var/run/docker.pid: " + e, e);
        }
    }

    private String container(String labId, String node, String role) {
        return docker.listContainersCmd()
                .withLabelFilter(Map.of("tclab.lab", labId, "tclab.node", node, "tclab.role", role))
                .exec()
                .get(0)
                .getId();
    }

    /**
     * The check's floor: the same iperf3 client the check runs (see {@code Commands}), by {@code docker exec} in the
     * client's measurement sidecar, against the lesson's own server; the rate it measured, in Mbit/s.
     */
    private static double iperf3(String sidecar) throws Exception {
        Process process = new ProcessBuilder(
                        "docker", "exec", sidecar, "iperf3", "-c", "10.0.0.2", "-J", "-C", "cubic", "-t", "3")
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        String out = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IllegalStateException("iperf3 in " + sidecar + " failed: " + out);
        }
        JsonNode end = new ObjectMapper().readTree(out).path("end");
        return end.path("sum_received").path("bits_per_second").asDouble() / 1e6;
    }

    /** The lesson step's solution for the client, as the lesson shows it. */
    private static String solution(Path step) throws IOException {
        Matcher block = Pattern.compile("```solution client\n(.*?)\n```", Pattern.DOTALL)
                .matcher(Files.readString(step));
        if (!block.find()) {
            throw new IllegalStateException(step + " has no solution block for the client");
        }
        return block.group(1).trim();
    }

    private static String loadAverage() {
        return String.format(
                "%.1f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    private static DockerClient dockerClient() {
        DockerClientConfig config =
                DefaultDockerClientConfig.createDefaultConfigBuilder().build();
        return DockerClientImpl.getInstance(
                config,
                new ApacheDockerHttpClient.Builder()
                        .dockerHost(config.getDockerHost())
                        .responseTimeout(Duration.ZERO)
                        .maxConnections(512)
                        .build());
    }
}
