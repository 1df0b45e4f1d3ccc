package dev.tclab.grading.run;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.grading.spec.Iperf3Measurement;
import dev.tclab.runtime.CommandSequence;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.runtime.NodeNotFoundException;
import dev.tclab.runtime.NodeStatus;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.regex.Pattern;

/**
 * The server side of an iperf3 measurement, run the platform's way: a one-off {@code iperf3 -s -1} on a random port,
 * started through {@link LabRuntime#exec} (the platform's own iperf3, never the learner's) in the node that holds
 * the measurement's server address. The lessons' own {@code iperf3 -s -D} on port 5201 stays for learners' manual
 * runs; a check never talks to it, so replacing or killing it changes no grade.
 */
final class IperfServer {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(10);
    private static final int PORT_TAKEN = 3;
    private static final int DIED = 4;
    /** Exit code of a node that does not hold the address. */
    static final int NOT_HERE = 10;
    /** The first line a node holding the address prints, before it starts the server. */
    static final String OWNER_LINE = "owner\n";

    private static final Pattern IPV4 = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");
    /** How old a served test's report left unread is when the next server start removes it. */
    private static final int UNREAD_REPORT_MINUTES = 5;

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A server listening on {@code node}, or why none could be started (in words for the learner). */
    record Started(String node, int port, String error) {

        static Started failed(String error) {
            return new Started(null, 0, error);
        }
    }

    private IperfServer() {}

    /** A random port from the one-off servers' range. */
    static int randomPort() {
        return Iperf3Measurement.FIRST_SERVER_PORT + RANDOM.nextInt(Iperf3Measurement.SERVER_PORTS);
    }

    /** A one-off server to start for {@code flow}: on the node that holds {@code address}, listening on {@code port}. */
    record Request(String flow, String address, int port) {}

    /**
     * What one round of {@link #startAll} gave: each request's server by flow, and the results of the reads run
     * along, by node, in the order given.
     */
    record Round(Map<String, Started> servers, Map<String, List<ExecResult>> reads) {}

    /**
     * Starts a server for each request on the port it gives, serving one test and then exiting, or exiting by itself
     * after {@code lifetime} when no client came; returns once they listen. Runs {@code readsAlong} (steps by node) in
     * the same round: every running node is asked at once, in one {@link LabRuntime#execAll} each on {@code parallel},
     * whether it holds each request's address, after the reads given for that node; the node that holds one starts
     * its server in the same call. A Check's gate read and its server start in calls of their own made 90 Docker
     * execs at once for 30 learners (3.1 s each at the median, each costing the engine 50-80 ms of CPU); one call per
     * node makes 60.
     */
    static Round startAll(
            LabRuntime runtime,
            String labId,
            List<Request> requests,
            Duration lifetime,
            Map<String, List<CommandSequence.Step>> readsAlong,
            ExecutorService parallel)
            throws EngineUnavailableException, NodeNotFoundException, InterruptedException {
        Map<String, Started> servers = new LinkedHashMap<>();
        List<Request> probed = new ArrayList<>();
        for (Request request : requests) {
            if (IPV4.matcher(request.address()).matches()) {
                probed.add(request);
            } else {
                // The check parser refuses such an address; the script below takes it as an argument all the same.
                servers.put(
                        request.flow(),
                        Started.failed("'" + request.address() + "' is not an IPv4 address of the lab"));
            }
        }
        Map<String, List<CommandSequence.Step>> steps = new LinkedHashMap<>();
        readsAlong.forEach((node, reads) -> steps.put(node, new ArrayList<>(reads)));
        if (!probed.isEmpty()) {
            for (NodeStatus node : runtime.status(labId)) {
                if (node.running()) {
                    List<CommandSequence.Step> own = steps.computeIfAbsent(node.node(), n -> new ArrayList<>());
                    probed.forEach(r -> own.add(probe(r, lifetime)));
                }
            }
        }
        Map<String, Future<List<ExecResult>>> asked = new LinkedHashMap<>();
        steps.forEach((node, own) -> asked.put(node, parallel.submit(() -> runtime.execAll(labId, node, own))));
        Map<String, List<ExecResult>> reads = new LinkedHashMap<>();
        Map<String, List<ExecResult>> probes = new LinkedHashMap<>();
        try {
            for (Map.Entry<String, Future<List<ExecResult>>> e : asked.entrySet()) {
                List<ExecResult> ran = LoadRunner.join(e.getValue());
                int readCount = readsAlong.getOrDefault(e.getKey(), List.of()).size();
                reads.put(e.getKey(), ran.subList(0, readCount));
                probes.put(e.getKey(), ran.subList(readCount, ran.size()));
            }
        } finally {
            asked.values().forEach(f -> f.cancel(true));
        }
        for (int i = 0; i < probed.size(); i++) {
            Request request = probed.get(i);
            Map<String, ExecResult> owners = new TreeMap<>();
            for (Map.Entry<String, List<ExecResult>> node : probes.entrySet()) {
                if (!node.getValue().isEmpty()
                        && node.getValue().get(i).stdout().startsWith(OWNER_LINE)) {
                    owners.put(node.getKey(), node.getValue().get(i));
                }
            }
            servers.put(request.flow(), started(request, owners));
        }
        Map<String, Started> inOrder = new LinkedHashMap<>();
        requests.forEach(r -> inOrder.put(r.flow(), servers.get(r.flow())));
        return new Round(inOrder, reads);
    }

    private static CommandSequence.Step probe(Request request, Duration lifetime) {
        return new CommandSequence.Step(
                List.of(
                        "sh",
                        "-c",
                        SCRIPT,
                        "sh",
                        request.address(),
                        Integer.toString(request.port()),
                        Long.toString(Math.max(1, lifetime.toSeconds()))),
                START_TIMEOUT);
    }

    /** The request's server, from the probes of the nodes that said they hold its address. */
    private static Started started(Request request, Map<String, ExecResult> owners) {
        String address = request.address();
        int port = request.port();
        if (owners.size() != 1) {
            // Servers started on several owners end by themselves: no client comes, and their lifetime is bounded.
            return Started.failed(
                    owners.isEmpty()
                            ? "no node of the lab has the address " + address
                                    + ", so there is no server to measure against"
                            : "the address " + address + " is on more than one node ("
                                    + String.join(", ", owners.keySet()) + "); remove it from all but one");
        }
        String node = owners.keySet().iterator().next();
        ExecResult started = owners.get(node);
        if (started.ok()) {
            return new Started(node, port, null);
        }
        String output = (started.stdout().substring(OWNER_LINE.length()) + started.stderr()).trim();
        return Started.failed(
                switch (started.exitCode()) {
                    case PORT_TAKEN ->
                        "port " + port + " on node " + node + " is taken by a process in the lab, so the"
                                + " measurement's iperf3 server cannot listen there; stop that process and check again";
                    case DIED -> "the measurement's iperf3 server on node " + node + " could not start: " + output;
                    default ->
                        "the measurement's iperf3 server on node " + node + " did not start listening"
                                + (started.timedOut() ? " in time" : ": " + output);
                });
    }

    /**
     * Stops a server that {@link #startAll} started and no client will use, in one exec on its node, and returns once
     * it is gone: so checks that start servers and then need none (a failing gate) never pile them up in a sidecar.
     */
    static void stop(LabRuntime runtime, String labId, Started server)
            throws EngineUnavailableException, NodeNotFoundException, InterruptedException {
        if (server.error() == null) {
            runtime.exec(
                    labId,
                    server.node(),
                    List.of("sh", "-c", STOP_SCRIPT, "sh", Integer.toString(server.port())),
                    START_TIMEOUT);
        }
    }

    /**
     * The read of the server's own report once its client is done, run in the server's node: what the receiving end
     * the platform started counted (issue 43, row 3: grading hears both ends; see {@link LinkProof}).
     */
    static CommandSequence.Step report(int port) {
        return new CommandSequence.Step(
                List.of("sh", "-c", REPORT_SCRIPT, "sh", Integer.toString(port)), Duration.ofSeconds(10));
    }

    /**
     * The payload bytes the server counted in its report (received for an upload, sent for a reverse flow), or empty
     * when it printed none: it served no client.
     */
    static OptionalLong counted(String report, boolean reverse) {
        // The report may start with iperf3's warnings (its stderr shares the file): a lab kernel without IPv6, as
        // User-Mode Linux labs have, makes it say "warning: this system does not seem to support IPv6".
        int json = report.indexOf('{');
        if (json < 0) {
            return OptionalLong.empty();
        }
        try {
            JsonNode bytes = JSON.readTree(report.substring(json))
                    .path("end")
                    .path(reverse ? "sum_sent" : "sum_received")
                    .path("bytes");
            return bytes.isNumber() ? OptionalLong.of(bytes.asLong()) : OptionalLong.empty();
        } catch (JsonProcessingException e) {
            return OptionalLong.empty();
        }
    }

    /**
     * Run as {@code sh -c REPORT_SCRIPT sh <port>} in the server's node, once the flow's client is done: waits up to 3 s
     * for the one-off server on the port to end (it writes its report as it ends, right after its client), ends it
     * when it still waits (no client came: it would hold a flow's fixed port for the next check), prints the report and
     * removes it. Prints no report when the server served no client.
     */
    private static final String REPORT_SCRIPT = String.join(
            "\n",
            "server=\"iperf3 -s -1 -J -p $1\" log=/tmp/iperf3-server-$1.log",
            "for i in $(seq 60); do",
            "  pgrep -xf \"$server\" >/dev/null || break",
            "  sleep 0.05",
            "done",
            "pkill -xf \"$server\"",
            "cat \"$log\" 2>/dev/null",
            "rm -f \"$log\"",
            "");

    /**
     * Run as {@code sh -c STOP_SCRIPT sh <port>} in the server's node: ends the one-off server on the port (matched by
     * its whole command line, so nothing else in the sidecar is touched; none when it ended already), removes its log
     * (the server's wrapper keeps the log of a server that did not end normally) and waits until it is gone.
     */
    private static final String STOP_SCRIPT = String.join(
            "\n",
            "server=\"iperf3 -s -1 -J -p $1\"",
            "pkill -xf \"$server\"",
            "rm -f /tmp/iperf3-server-$1.log",
            "for i in $(seq 100); do",
            "  pgrep -xf \"$server\" >/dev/null || exit 0",
            "  sleep 0.02",
            "done",
            "exit 1",
            "");

    /**
     * Run as {@code sh -c SCRIPT sh <address> <port> <lifetime>} in every node. A node without the address (as the
     * live lab has it: a learner may have moved it) exits at once; the one with it says so on its first line, then
     * starts the server in the background of the exec, holding none of the exec's output open (so the exec ends), and
     * the exec returns once it listens. A listener on the port before the start is someone else's: that is reported,
     * not raced. The server's report goes to a file that the check's read removes ({@link #report}); one no check
     * read, or of a server no client came to, is removed as well, so a sidecar's small /tmp never fills with them.
     */
    private static final String SCRIPT = String.join(
            "\n",
            // Named at once: inside a function, $1, $2... are the function's own arguments.
            "address=$1 port=$2 lifetime=$3 log=/tmp/iperf3-server-$2.log",
            "[ -n \"$(ip -o addr show to \"$address\" 2>/dev/null)\" ] || exit " + NOT_HERE,
            "echo " + OWNER_LINE.strip(),
            "listening() { [ -n \"$(ss -Hltn \"sport = :$port\")\" ]; }",
            "if listening; then exit " + PORT_TAKEN + "; fi",
            // A server that served its test keeps its report for the check's read (REPORT_SCRIPT), which removes it;
            // reports left unread (their check ended first) are removed by the next start once they are stale.
            "find /tmp -maxdepth 1 -name 'iperf3-server-*.log' -mmin +" + UNREAD_REPORT_MINUTES
                    + " -delete 2>/dev/null",
            "( timeout -k 2 \"$lifetime\" iperf3 -s -1 -J -p \"$port\" >\"$log\" 2>&1;"
                    + " if [ $? = 124 ]; then rm -f \"$log\"; fi ) >/dev/null 2>&1 </dev/null &",
            "server=$!",
            "for i in $(seq 100); do",
            "  if listening; then exit 0; fi",
            "  if ! kill -0 $server 2>/dev/null; then head -c 2000 \"$log\"; rm -f \"$log\"; exit " + DIED + "; fi",
            "  sleep 0.05",
            "done",
            "exit 5",
            "");
}
