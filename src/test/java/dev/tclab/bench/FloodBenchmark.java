package dev.tclab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tclab.lab.PackagedApp;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 25, rows 2 and 3, in figures, for docs/BENCHMARKS.md ("Floods") and docs/SECURITY.md, not a test of them: runs
 * only with {@code mvn -B -Pbenchmark verify -Dit.test=FloodBenchmark} and writes target/benchmarks/floods.md. The
 * packaged app runs as its own process (so /proc/PID tells its memory and file handles apart from this client's) with
 * a learner's tbf-basics lab running. For each case, one at a time, {@code GET /api/system} is polled every 50 ms and
 * the app's VmRSS and file handles sampled every 100 ms for the window (20 s, longer when the probe takes longer):
 * first the floor (the idle app, the lab running, nothing else), then while the learner, with their one cookie,
 * (a) opens 6,000 statistics sockets on their own lab and never reads them, (b) sends 1 GB of terminal input in 65 KB
 * messages into a shell that does not read it, as fast as the socket takes it, reconnecting after each close, and (c)
 * runs {@code base64 /dev/urandom} in a terminal that reads it, and (d) offers 1 GB into one terminal socket from its
 * open, as fast as TCP takes it, never answering the close (issue 43, row 1). It asserts only that each case ran;
 * speed is reported.
 */
@Tag("benchmark")
class FloodBenchmark {

    private static final Duration WINDOW = Duration.ofSeconds(Integer.getInteger("bench.window-seconds", 20));
    private static final int SOCKETS = Integer.getInteger("bench.sockets", 6000);
    /** Client threads opening the sockets at once: a script's worth, not a botnet's. */
    private static final int SOCKET_THREADS = 16;

    private static final long INPUT_BYTES = 1_000_000_000L;
    private static final int INPUT_MESSAGE = 65_000;
    private static final long POLL_MILLIS = 50;
    private static final long SAMPLE_MILLIS = 100;
    /** After a probe, before "RSS after": the app's time to close what the probe left. */
    private static final Duration SETTLE = Duration.ofSeconds(5);

    private static final String LESSON = "tbf-basics";
    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

    private PackagedApp app;
    private ProcessUsage usage;
    private String cookieHeader;
    private String labId;

    /** What one probe did, in words for the report's last column; runs until {@code windowEnd} (System.nanoTime). */
    private interface Probe {
        String run(long windowEnd) throws Exception;
    }

    /** One row of the report. */
    private record Row(
            String name,
            Stats poll,
            int failedPolls,
            long rssBefore,
            long rssPeak,
            long rssAfter,
            int fdsBefore,
            int fdsPeak,
            int fdsAfter,
            double cpuCores,
            double seconds,
            String outcome) {

        String markdown() {
            return String.format(
                    "| %s | %d | %.0f | %.0f | %.0f | %.0f | %d | %d / %d / %d | %d / %d / %d | %.2f | %.1f | %s |",
                    name,
                    poll.n(),
                    poll.p50(),
                    poll.p95(),
                    poll.p99(),
                    poll.max(),
                    failedPolls,
                    rssBefore >> 20,
                    rssPeak >> 20,
                    rssAfter >> 20,
                    fdsBefore,
                    fdsPeak,
                    fdsAfter,
                    cpuCores,
                    seconds,
                    outcome);
        }
    }

    @Test
    void floodsAgainstThePackagedApp() throws Exception {
        long maxFiles = ((com.sun.management.UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getMaxFileDescriptorCount();
        assertThat(maxFiles)
                .as("this JVM's open-file limit must hold the probe's " + SOCKETS + " sockets: raise `ulimit -n`")
                .isGreaterThan(SOCKETS + 500L);
        Path work = Path.of(
                "target/benchmarks/floods-work", UUID.randomUUID().toString().substring(0, 8));
        Files.createDirectories(work);
        String instance = System.getenv().getOrDefault("_TEST_TCLAB_INSTANCE", "tclab-test") + "-floods";
        app = new PackagedApp(work.resolve("data"), instance, work);
        // To find where a stall's time goes, e.g. -Dbench.java-tool-options=-XX:StartFlightRecording=filename=app.jfr
        String jvmOptions = System.getProperty("bench.java-tool-options", "");
        if (!jvmOptions.isBlank()) {
            app.environment("JAVA_TOOL_OPTIONS", jvmOptions);
        }
        Instant began = Instant.now();
        String loadBefore = loadAverage();
        app.start();
        usage = new ProcessUsage(app.pid());
        ClassApi api = new ClassApi(app.base());
        String cookie = api.newLearner();
        cookieHeader = "tclab_learner=" + cookie;
        try {
            labId = startLab(api, cookie);
            List<Row> rows = new ArrayList<>();
            rows.add(measure("floor: idle app, the lab running", end -> {
                sleepUntil(end);
                return "nothing";
            }));
            // The socket probe last: it spends the learner's WebSocket opens of the minute (tclab.sockets.opens-per-
            // learner), which the input probe's reconnections need.
            rows.add(measure("(b) 1 GB of terminal input, 65 KB messages", this::inputProbe));
            rows.add(measure("(c) output flood: `base64 /dev/urandom` read by the terminal", this::outputProbe));
            rows.add(measure(
                    "(d) 1 GB into one terminal socket from its open, close never answered", this::rawInputProbe));
            rows.add(measure(
                    String.format("(a) %,d statistics sockets, one cookie, never read", SOCKETS), this::socketProbe));
            assertThat(api.lab(cookie, labId).path("status").asText())
                    .as("the lab still runs after the probes")
                    .isEqualTo("running");
            String report = report(began, loadBefore, loadAverage(), rows);
            Path out = Path.of("target/benchmarks/floods.md");
            Files.createDirectories(out.getParent());
            Files.writeString(out, report);
            System.out.println(report);
            for (Row row : rows) {
                // 20 s at 50 ms is 400 polls on an idle app; a stall of most of the window still leaves a few.
                assertThat(row.poll().n()).as("polls during " + row.name()).isGreaterThanOrEqualTo(10);
                assertThat(row.seconds()).as("window of " + row.name()).isGreaterThanOrEqualTo(WINDOW.toSeconds());
            }
        } finally {
            if (labId != null) {
                try {
                    api.stopLab(cookie, labId);
                } catch (Exception | AssertionError e) {
                    System.err.println("could not stop lab " + labId + ": " + e);
                }
            }
            app.stop();
            removeContainers(instance);
        }
    }

    /** What the app left of its labs, should it have died before stopping them (by the instance label, ours alone). */
    private static void removeContainers(String instance) throws Exception {
        Process list = new ProcessBuilder("docker", "ps", "-aq", "--filter", "label=tclab.instance=" + instance)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        List<String> ids = new String(list.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                .lines()
                .filter(id -> !id.isBlank())
                .toList();
        list.waitFor();
        if (!ids.isEmpty()) {
            List<String> remove = new ArrayList<>(List.of("docker", "rm", "-f"));
            remove.addAll(ids);
            new ProcessBuilder(remove).inheritIO().start().waitFor();
        }
    }

    /** Presses Start for the learner and polls the lab until it runs; its id. */
    private static String startLab(ClassApi api, String cookie) throws Exception {
        JsonNode lab = api.startLab(cookie, LESSON);
        String id = lab.path("id").asText();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (!lab.path("status").asText().equals("running")) {
            String status = lab.path("status").asText();
            if (status.equals("failed") || status.equals("stopped") || System.nanoTime() > deadline) {
                throw new IllegalStateException("lab " + id + " is " + status + ": " + lab.path("reason"));
            }
            Thread.sleep(200);
            lab = api.lab(cookie, id);
        }
        return id;
    }

    /** Runs a probe with the poll and the sampler on, for the window at least; then lets the app settle. */
    private Row measure(String name, Probe probe) throws Exception {
        long rssBefore = usage.rssBytes();
        int fdsBefore = usage.fileHandles();
        long cpuBefore = usage.cpuNanos();
        long t0 = System.nanoTime();
        SystemPoll poll = SystemPoll.start(app.base(), POLL_MILLIS);
        ProcessSampler sampler = ProcessSampler.start(usage, SAMPLE_MILLIS);
        String outcome;
        List<Double> millis;
        try {
            outcome = probe.run(t0 + WINDOW.toNanos());
            sleepUntil(t0 + WINDOW.toNanos());
        } finally {
            millis = poll.stop();
            sampler.close();
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        double cores = (usage.cpuNanos() - cpuBefore) / 1e9 / seconds;
        Thread.sleep(SETTLE.toMillis());
        Row row = new Row(
                name,
                Stats.of(millis),
                poll.failures().size(),
                rssBefore,
                Math.max(rssBefore, sampler.peakRssBytes()),
                usage.rssBytes(),
                fdsBefore,
                Math.max(fdsBefore, sampler.peakFileHandles()),
                usage.fileHandles(),
                cores,
                seconds,
                outcome + (poll.failures().isEmpty() ? "" : "; failed polls: " + poll.failures()));
        System.out.println("FLOODS " + row.markdown());
        return row;
    }

    /** (a) Opens the sockets, holds them unread to the window's end, then reads how each ended. */
    private String socketProbe(long windowEnd) throws Exception {
        try (NeverReadingSockets sockets = new NeverReadingSockets()) {
            long t0 = System.nanoTime();
            sockets.open(app.base(), "/ws/labs/" + labId + "/stats", cookieHeader, SOCKETS, SOCKET_THREADS);
            double openSeconds = (System.nanoTime() - t0) / 1e9;
            sleepUntil(windowEnd);
            NeverReadingSockets.Tally tally = sockets.tally();
            assertThat(tally.accepted()).as("statistics sockets accepted").isPositive();
            return String.format(
                    "%s (opened in %.1f s, read at %.0f s)",
                    tally.describe(), openSeconds, (System.nanoTime() - t0) / 1e9);
        }
    }

    /**
     * (b) The client's shell stops reading ({@code stty -icanon; sleep 999}); then 65 KB messages as fast as the socket
     * takes them, reconnecting after each close, until 1 GB went or the window ended.
     */
    private String inputProbe(long windowEnd) throws Exception {
        CountingTerminal terminal = CountingTerminal.open(app.base(), labId, "client", cookieHeader);
        if (!terminal.awaitTail("@client", Duration.ofSeconds(30))) {
            throw new IllegalStateException("no prompt in the client's terminal");
        }
        terminal.send("stty -icanon; sleep 999\r");
        Thread.sleep(500);
        byte[] message = new byte[INPUT_MESSAGE];
        Arrays.fill(message, (byte) 'a');
        long total = 0;
        List<Double> mbPerConnection = new ArrayList<>();
        List<Double> secondsPerConnection = new ArrayList<>();
        Map<String, Integer> closes = new TreeMap<>();
        // Bounded, should the app never close the socket: 1 GB would take long on a loaded machine.
        long hardEnd = windowEnd + WINDOW.toNanos();
        while (total < INPUT_BYTES && System.nanoTime() < windowEnd) {
            if (terminal == null) {
                terminal = CountingTerminal.open(app.base(), labId, "client", cookieHeader);
            }
            long sent = 0;
            long t0 = System.nanoTime();
            while (total < INPUT_BYTES && System.nanoTime() < hardEnd && terminal.send(message)) {
                sent += message.length;
                total += message.length;
            }
            mbPerConnection.add(sent / 1e6);
            secondsPerConnection.add((System.nanoTime() - t0) / 1e9);
            String closed = terminal.awaitClose(Duration.ofSeconds(10));
            closes.merge(closed == null ? "still open" : closed, 1, Integer::sum);
            terminal.close();
            terminal = null;
        }
        assertThat(total).as("terminal input sent").isPositive();
        return String.format(
                "%d connections, %.0f MB sent in all; per connection %.1f MB (median) in %.2f s before: %s",
                mbPerConnection.size(), total / 1e6, median(mbPerConnection), median(secondsPerConnection), closes);
    }

    /**
     * (d) Issue 43, row 1: the client's shell still does not read ((b) left it in {@code sleep 999}); one socket
     * offers 1 GB of 65,000-byte messages from the moment it opens, written as fast as TCP takes them and never
     * answering the server's close ({@code FloodSocket}). What the server took, how it closed, and the app's heap
     * after a full collection before and after, read with jcmd, and whether its log holds an OutOfMemoryError.
     */
    private String rawInputProbe(long windowEnd) throws Exception {
        long heapBefore = heapAfterGc();
        long taken;
        Integer code;
        try (dev.tclab.web.FloodSocket flood =
                dev.tclab.web.FloodSocket.terminal(app.base(), labId, "client", cookieHeader)) {
            flood.startFlood(INPUT_BYTES, INPUT_MESSAGE);
            code = flood.awaitClose(WINDOW);
            taken = flood.awaitWrittenStill(Duration.ofSeconds(3), WINDOW);
            sleepUntil(windowEnd);
        }
        long heapAfter = heapAfterGc();
        boolean outOfMemory = Files.readString(app.log()).contains("OutOfMemoryError");
        return String.format(
                "%d MB of %d MB taken, closed %s; heap after a full GC %d → %d MiB (%+d); %s",
                taken / 1_000_000,
                INPUT_BYTES / 1_000_000,
                code,
                heapBefore >> 20,
                heapAfter >> 20,
                (heapAfter - heapBefore) >> 20,
                outOfMemory ? "OutOfMemoryError in the app's log" : "no OutOfMemoryError");
    }

    /** The app's heap in use after a full collection ({@code jcmd PID GC.run}, then {@code GC.heap_info}), bytes. */
    private long heapAfterGc() throws Exception {
        jcmd("GC.run");
        java.util.regex.Matcher used =
                java.util.regex.Pattern.compile("used (\\d+)K").matcher(jcmd("GC.heap_info"));
        if (!used.find()) {
            throw new IllegalStateException("jcmd GC.heap_info printed no heap in use");
        }
        return Long.parseLong(used.group(1)) << 10;
    }

    private String jcmd(String command) throws Exception {
        Process jcmd = new ProcessBuilder("jcmd", Long.toString(app.pid()), command)
                .redirectErrorStream(true)
                .start();
        String out = new String(jcmd.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (jcmd.waitFor() != 0) {
            throw new IllegalStateException("jcmd " + command + " failed: " + out);
        }
        return out;
    }

    /**
     * (c) The server node's shell (the client's is still stuck in (b)'s {@code sleep}) runs {@code base64
     * /dev/urandom} for the window while the terminal reads as fast as the app sends.
     */
    private String outputProbe(long windowEnd) throws Exception {
        try (CountingTerminal terminal = CountingTerminal.open(app.base(), labId, "server", cookieHeader)) {
            if (!terminal.awaitTail("@server", Duration.ofSeconds(30))) {
                throw new IllegalStateException("no prompt in the server's terminal");
            }
            long before = terminal.received();
            long seconds = Math.max(1, (windowEnd - System.nanoTime()) / 1_000_000_000L);
            long t0 = System.nanoTime();
            // The marker is computed by the shell, so the command line's own echo does not match it.
            terminal.send("timeout " + seconds + " base64 /dev/urandom; echo FLOOD-$((6*7))\r");
            boolean ended = terminal.awaitTail("FLOOD-42", Duration.ofSeconds(seconds + 60));
            double took = (System.nanoTime() - t0) / 1e9;
            long mb = (terminal.received() - before) / 1_000_000;
            String closed = terminal.awaitClose(Duration.ofMillis(1));
            assertThat(mb).as("MB of output read").isPositive();
            return String.format(
                    "%d MB delivered in %.1f s (%.1f MB/s); %s; socket %s",
                    mb,
                    took,
                    mb / took,
                    ended ? "the flood's end seen" : "its end not seen within a minute",
                    closed == null ? "kept open" : "closed " + closed);
        }
    }

    private static String report(Instant began, String loadBefore, String loadAfter, List<Row> rows) {
        StringBuilder md = new StringBuilder("# Floods against the packaged app (issue 25, rows 2 and 3)\n\n");
        md.append("Run ")
                .append(began.truncatedTo(ChronoUnit.MINUTES))
                .append(", ")
                .append(Runtime.getRuntime().availableProcessors())
                .append(" cores, load average ")
                .append(loadBefore)
                .append(" before and ")
                .append(loadAfter)
                .append(" after. `GET /api/system` polled every ")
                .append(POLL_MILLIS)
                .append(" ms, one at a time; the app's VmRSS and file handles sampled every ")
                .append(SAMPLE_MILLIS)
                .append(" ms; \"after\" is ")
                .append(SETTLE.toSeconds())
                .append(" s after the window.\n\n");
        md.append("| case | polls | p50 ms | p95 ms | p99 ms | max ms | failed polls | RSS MiB before / peak / after"
                + " | fds before / peak / after | app CPU, cores | window s | what the app did |\n");
        md.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
        rows.forEach(row -> md.append(row.markdown()).append('\n'));
        return md.toString();
    }

    private static double median(List<Double> values) {
        return values.isEmpty() ? 0 : Stats.of(values).p50();
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long left = nanoTime - System.nanoTime();
        if (left > 0) {
            Thread.sleep(left / 1_000_000L);
        }
    }

    private static String loadAverage() {
        return String.format(
                "%.1f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
}
