package dev.tclab.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tclab.web.TestSocket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One simulated learner of the class benchmark, doing over HTTP and WebSockets what a learner's page does: joins the
 * workshop, starts the lesson's lab, opens a terminal and the statistics, types, shapes the link, presses Check.
 * Each step records its timings here; the first thing that goes wrong marks the learner failed.
 */
final class Learner {

    /**
     * How often the learner polls a starting lab: as the page does (lab.js, every 500 ms). A class's Starts are polled
     * all at once for the whole start, so a faster poll here would load the server (and this client, on the same
     * cores) five times more than a class does; the learner sees `running` at the page's next poll anyway.
     */
    private static final long START_POLL_MILLIS = 500;

    /** How often the learner polls a check run: faster than the page (700 ms), to count its states to 0.1 s. */
    private static final long POLL_MILLIS = 100;

    private static final Pattern SAMPLE_TIME = Pattern.compile("^\\{\"type\":\"sample\".*?\"time\":(\\d+)");

    private final ClassApi api;
    private final String name;
    private String cookie;
    private String labId;
    private TestSocket terminal;
    private TestSocket stats;
    private volatile String failure;

    /** Lab start as the learner saw it: waiting (queued, or for a start worker) and then starting until running. */
    double queueWaitMillis;

    double startMillis;
    /** Start pressed to the prompt in the client's terminal. */
    double promptMillis;

    long[] echoNanos = new long[0];
    /** Per statistics frame: the time it arrived minus its sample time. */
    final List<Double> statsDelayMillis = Collections.synchronizedList(new ArrayList<>());
    /** Check as the learner saw it: queued for a check worker, waiting for a measurement slot, the rest measuring. */
    double checkQueuedMillis;

    double slotWaitMillis;
    double measureMillis;
    String verdict;
    /** What the check measured: the rate (Mbit/s) of its iperf3 run, or NaN. */
    double measuredMbps = Double.NaN;
    /** Every figure the last check's first result compared, by its path ({@code up.mbps}, {@code lat.avg_ms}). */
    final Map<String, Double> figures = new ConcurrentHashMap<>();

    /** A learner with an HTTP client of its own, as each learner's browser is: no request waits behind another's. */
    Learner(URI base, String name) {
        this.api = new ClassApi(base);
        this.name = name;
    }

    String name() {
        return name;
    }

    String labId() {
        return labId;
    }

    boolean failed() {
        return failure != null;
    }

    String failure() {
        return failure;
    }

    void fail(String why) {
        if (failure == null) {
            failure = name + ": " + why;
        }
    }

    void join(String code) throws Exception {
        cookie = api.newLearner();
        api.join(cookie, code, name);
    }

    /** Presses Start and polls the lab until it runs, as the page does. */
    void startLab(String lesson, Duration timeout) throws Exception {
        long t0 = System.nanoTime();
        JsonNode lab = api.startLab(cookie, lesson);
        labId = lab.path("id").asText();
        long deadline = t0 + timeout.toNanos();
        Long begun = null;
        while (System.nanoTime() < deadline) {
            long now = System.nanoTime();
            String status = lab.path("status").asText();
            if (begun == null && (status.equals("running") || !lab.path("stage").isNull())) {
                begun = now;
            }
            if (status.equals("running")) {
                queueWaitMillis = (begun - t0) / 1e6;
                startMillis = (now - begun) / 1e6;
                return;
            }
            if (status.equals("failed") || status.equals("stopped")) {
                throw new IllegalStateException("lab " + labId + " is " + status + ": "
                        + lab.path("reason").asText());
            }
            Thread.sleep(START_POLL_MILLIS);
            lab = api.lab(cookie, labId);
        }
        throw new IllegalStateException("lab " + labId + " was not running within " + timeout);
    }

    /** Presses Start, then opens the client's terminal as soon as the lab runs, as the page does, until its prompt. */
    void startToPrompt(String lesson, Duration timeout) throws Exception {
        long t0 = System.nanoTime();
        startLab(lesson, timeout);
        terminal = TestSocket.open(
                api.base(), "/ws/labs/" + labId + "/nodes/client/terminal", cookie, TestSocket.originOf(api.base()));
        terminal.awaitOutput(out -> out.contains("@client"), Duration.ofSeconds(30));
        promptMillis = (System.nanoTime() - t0) / 1e6;
    }

    /** Reads the lab once, as the page's poll does; how long the answer took. */
    double readLabMillis() throws Exception {
        long t0 = System.nanoTime();
        api.lab(cookie, labId);
        return (System.nanoTime() - t0) / 1e6;
    }

    /** Opens the client's terminal and the lab's statistics, as the lesson page does; waits for the prompt. */
    void openSockets() throws Exception {
        String origin = TestSocket.originOf(api.base());
        stats = TestSocket.open(api.base(), "/ws/labs/" + labId + "/stats", cookie, origin);
        stats.observeTexts(text -> {
            Matcher time = SAMPLE_TIME.matcher(text);
            if (time.find()) {
                statsDelayMillis.add((double) (System.currentTimeMillis() - Long.parseLong(time.group(1))));
            }
        });
        terminal = TestSocket.open(api.base(), "/ws/labs/" + labId + "/nodes/client/terminal", cookie, origin);
        terminal.awaitOutput(out -> out.contains("@client"), Duration.ofSeconds(30));
    }

    void type(int keys, long pauseMillis) throws InterruptedException {
        echoNanos = SocketEcho.latencies(terminal, keys, pauseMillis);
    }

    /** Types a command line into the terminal and waits for the prompt after it. */
    void run(String command, Duration timeout) throws InterruptedException {
        int before = terminal.output().length();
        terminal.sendBinary(command + "\r");
        terminal.awaitOutput(
                out -> out.length() > before + command.length()
                        && out.substring(before + command.length()).contains("@client"),
                timeout);
    }

    /** Types a command line into a terminal of its own on {@code node}, waits for the prompt after it, closes it. */
    void runOn(String node, String command, Duration timeout) throws Exception {
        TestSocket shell = TestSocket.open(
                api.base(),
                "/ws/labs/" + labId + "/nodes/" + node + "/terminal",
                cookie,
                TestSocket.originOf(api.base()));
        try {
            String prompt = "@" + node;
            shell.awaitOutput(out -> out.contains(prompt), timeout);
            int before = shell.output().length();
            shell.sendBinary(command + "\r");
            shell.awaitOutput(
                    out -> out.length() > before + command.length()
                            && out.substring(before + command.length()).contains(prompt),
                    timeout);
        } finally {
            shell.close();
        }
    }

    /** Presses Check on the step and polls the run to its verdict, as the page does. */
    void check(String step, Duration timeout) throws Exception {
        long t0 = System.nanoTime();
        String runId = api.check(cookie, labId, step);
        long deadline = t0 + timeout.toNanos();
        long queued = 0;
        long waiting = 0;
        long last = t0;
        while (System.nanoTime() < deadline) {
            Thread.sleep(POLL_MILLIS);
            JsonNode run = api.checkRun(cookie, labId, runId);
            long now = System.nanoTime();
            // Each state is counted from the previous poll: resolution POLL_MILLIS.
            switch (run.path("state").asText()) {
                case "queued" -> queued += now - last;
                case "waiting_for_slot" -> waiting += now - last;
                default -> {}
            }
            last = now;
            if (run.path("finished").asBoolean()) {
                checkQueuedMillis = queued / 1e6;
                slotWaitMillis = waiting / 1e6;
                measureMillis = (now - t0 - queued - waiting) / 1e6;
                verdict = run.path("state").asText();
                figures.clear();
                for (JsonNode assertion : run.path("results").path(0).path("assertions")) {
                    if (assertion.path("number").isNumber()) {
                        figures.put(
                                assertion.path("path").asText(),
                                assertion.path("number").asDouble());
                    }
                }
                measuredMbps = figures.getOrDefault("up.mbps", Double.NaN);
                return;
            }
        }
        throw new IllegalStateException("check run " + runId + " had no verdict within " + timeout);
    }

    /** Closes the sockets and stops the lab; nothing here counts as a failure. */
    void leave() {
        if (terminal != null) {
            terminal.close();
        }
        if (stats != null) {
            stats.close();
        }
        if (labId != null) {
            try {
                api.stopLab(cookie, labId);
            } catch (Exception | AssertionError e) {
                System.err.println("could not stop lab " + labId + ": " + e);
            }
        }
    }
}
