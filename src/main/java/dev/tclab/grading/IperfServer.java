package dev.tclab.grading;

import dev.tclab.lab.EngineUnavailableException;
import dev.tclab.lab.ExecResult;
import dev.tclab.lab.LabRuntime;
import dev.tclab.lab.NodeNotFoundException;
import dev.tclab.lab.NodeStatus;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    /** Ports the one-off servers pick from at random, above the lessons' 5201 and below Linux's ephemeral range. */
    static final int FIRST_PORT = 20000;
    static final int PORTS = 10000;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(10);
    private static final int PORT_TAKEN = 3;
    private static final int DIED = 4;
    /** Exit code of a node that does not hold the address. */
    static final int NOT_HERE = 10;
    /** The first line a node holding the address prints, before it starts the server. */
    static final String OWNER_LINE = "owner\n";
    private static final Pattern IPV4 = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A server listening on {@code node}, or why none could be started (in words for the learner). */
    record Started(String node, int port, String error) {

        static Started failed(String error) {
            return new Started(null, 0, error);
        }
    }

    private IperfServer() {
    }

    /** A random port from the one-off servers' range. */
    static int randomPort() {
        return FIRST_PORT + RANDOM.nextInt(PORTS);
    }

    /**
     * Starts a server for {@code address} on {@code port} (a flow's own, or one picked for it) that serves one test
     * and then exits, or exits by itself after {@code lifetime} when no client came. Returns once it listens.
     * Each running node is asked at once, in one exec each on {@code parallel}, whether it holds the address, and the
     * node that does starts the server in the same exec: a check under a class's load waits for one round of execs
     * instead of one per node and then one more for the server.
     */
    static Started start(LabRuntime runtime, String labId, String address, int port, Duration lifetime,
                         ExecutorService parallel)
            throws EngineUnavailableException, NodeNotFoundException, InterruptedException {
        if (!IPV4.matcher(address).matches()) {
            // The check parser refuses such an address; the script below takes it as an argument all the same.
            return Started.failed("'" + address + "' is not an IPv4 address of the lab");
        }
        Map<String, Future<ExecResult>> asked = new LinkedHashMap<>();
        for (NodeStatus node : runtime.status(labId)) {
            if (node.running()) {
                asked.put(node.node(), parallel.submit(() -> runtime.exec(labId, node.node(),
                        List.of("sh", "-c", SCRIPT, "sh", address, Integer.toString(port),
                                Long.toString(Math.max(1, lifetime.toSeconds()))), START_TIMEOUT)));
            }
        }
        Map<String, ExecResult> owners = new TreeMap<>();
        try {
            for (Map.Entry<String, Future<ExecResult>> e : asked.entrySet()) {
                ExecResult result = CheckRunner.join(e.getValue());
                if (result.stdout().startsWith(OWNER_LINE)) {
                    owners.put(e.getKey(), result);
                }
            }
        } finally {
            asked.values().forEach(f -> f.cancel(true));
        }
        if (owners.size() != 1) {
            // Servers started on several owners end by themselves: no client comes, and their lifetime is bounded.
            return Started.failed(owners.isEmpty()
                    ? "no node of the lab has the address " + address + ", so there is no server to measure against"
                    : "the address " + address + " is on more than one node (" + String.join(", ", owners.keySet())
                            + "); remove it from all but one");
        }
        String node = owners.keySet().iterator().next();
        ExecResult started = owners.get(node);
        if (started.ok()) {
            return new Started(node, port, null);
        }
        String output = (started.stdout().substring(OWNER_LINE.length()) + started.stderr()).trim();
        return Started.failed(switch (started.exitCode()) {
            case PORT_TAKEN -> "port " + port + " on node " + node + " is taken by a process in the lab, so the"
                    + " measurement's iperf3 server cannot listen there; stop that process and check again";
            case DIED -> "the measurement's iperf3 server on node " + node + " could not start: " + output;
            default -> "the measurement's iperf3 server on node " + node + " did not start listening"
                    + (started.timedOut() ? " in time" : ": " + output);
        });
    }

    /**
     * Stops a server that {@link #start} started and no client will use, in one exec on its node, and returns once
     * it is gone: so checks that start servers and then need none (a failing gate) never pile them up in a sidecar.
     */
    static void stop(LabRuntime runtime, String labId, Started server)
            throws EngineUnavailableException, NodeNotFoundException, InterruptedException {
        if (server.error() == null) {
            runtime.exec(labId, server.node(), List.of("sh", "-c", STOP_SCRIPT, "sh", Integer.toString(server.port())),
                    START_TIMEOUT);
        }
    }

    /**
     * Run as {@code sh -c STOP_SCRIPT sh <port>} in the server's node: ends the one-off server on the port (matched by
     * its whole command line, so nothing else in the sidecar is touched; none when it ended already), removes its log
     * (the server's wrapper keeps the log of a server that did not end normally) and waits until it is gone.
     */
    private static final String STOP_SCRIPT = String.join("\n",
            "server=\"iperf3 -s -1 -p $1\"",
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
     * not raced. The server's output goes to a file that is removed once read or once the server is done, so a
     * sidecar's small /tmp never fills with them.
     */
    private static final String SCRIPT = String.join("\n",
            // Named at once: inside a function, $1, $2... are the function's own arguments.
            "address=$1 port=$2 lifetime=$3 log=/tmp/iperf3-server-$2.log",
            "[ -n \"$(ip -o addr show to \"$address\" 2>/dev/null)\" ] || exit " + NOT_HERE,
            "echo " + OWNER_LINE.strip(),
            "listening() { [ -n \"$(ss -Hltn \"sport = :$port\")\" ]; }",
            "if listening; then exit " + PORT_TAKEN + "; fi",
            "( timeout -k 2 \"$lifetime\" iperf3 -s -1 -p \"$port\" >\"$log\" 2>&1; s=$?;"
                    + " if [ $s = 0 ] || [ $s = 124 ]; then rm -f \"$log\"; fi ) >/dev/null 2>&1 </dev/null &",
            "server=$!",
            "for i in $(seq 100); do",
            "  if listening; then exit 0; fi",
            "  if ! kill -0 $server 2>/dev/null; then head -c 2000 \"$log\"; rm -f \"$log\"; exit " + DIED + "; fi",
            "  sleep 0.05",
            "done",
            "exit 5",
            "");
}
