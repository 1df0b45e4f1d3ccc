package dev.tclab.grading;

import dev.tclab.lab.EngineUnavailableException;
import dev.tclab.lab.ExecResult;
import dev.tclab.lab.LabRuntime;
import dev.tclab.lab.NodeNotFoundException;
import dev.tclab.lab.NodeStatus;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

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
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A server listening, or why none could be started (in words for the learner). */
    record Started(int port, String error) {
    }

    private IperfServer() {
    }

    /**
     * Starts a server for {@code address} that serves one test and then exits, or exits by itself after
     * {@code lifetime} when no client came. Returns once it listens.
     */
    static Started start(LabRuntime runtime, String labId, String address, Duration lifetime)
            throws EngineUnavailableException, NodeNotFoundException {
        return start(runtime, labId, address, randomPort(), lifetime);
    }

    /** A random port from the one-off servers' range. */
    static int randomPort() {
        return FIRST_PORT + RANDOM.nextInt(PORTS);
    }

    /** As {@link #start(LabRuntime, String, String, Duration)}, on a given port (a flow's own, or one picked for it). */
    static Started start(LabRuntime runtime, String labId, String address, int port, Duration lifetime)
            throws EngineUnavailableException, NodeNotFoundException {
        List<String> owners = ownersOf(runtime, labId, address);
        if (owners.size() != 1) {
            return new Started(0, owners.isEmpty()
                    ? "no node of the lab has the address " + address + ", so there is no server to measure against"
                    : "the address " + address + " is on more than one node (" + String.join(", ", owners)
                            + "); remove it from all but one");
        }
        ExecResult started = runtime.exec(labId, owners.get(0), List.of("sh", "-c", script(port, lifetime)),
                START_TIMEOUT);
        if (started.ok()) {
            return new Started(port, null);
        }
        String node = owners.get(0);
        return new Started(0, switch (started.exitCode()) {
            case PORT_TAKEN -> "port " + port + " on node " + node + " is taken by a process in the lab, so the"
                    + " measurement's iperf3 server cannot listen there; stop that process and check again";
            case DIED -> "the measurement's iperf3 server on node " + node + " could not start: "
                    + (started.stdout() + started.stderr()).trim();
            default -> "the measurement's iperf3 server on node " + node + " did not start listening"
                    + (started.timedOut() ? " in time" : ": " + (started.stdout() + started.stderr()).trim());
        });
    }

    /**
     * The server runs in the background of the exec, holding none of the exec's output open (so the exec ends), and
     * the exec returns once it listens. A listener on the port before the start is someone else's: that is reported,
     * not raced. The server's output goes to a file that is removed once read or once the server is done, so a
     * sidecar's small /tmp never fills with them.
     */
    private static String script(int port, Duration lifetime) {
        String log = "/tmp/iperf3-server-" + port + ".log";
        return "listening() { [ -n \"$(ss -Hltn \"sport = :" + port + "\")\" ]; }\n"
                + "if listening; then exit " + PORT_TAKEN + "; fi\n"
                + "( timeout -k 2 " + Math.max(1, lifetime.toSeconds()) + " iperf3 -s -1 -p " + port + " >" + log
                + " 2>&1; s=$?; if [ $s = 0 ] || [ $s = 124 ]; then rm -f " + log + "; fi ) >/dev/null 2>&1 </dev/null &\n"
                + "server=$!\n"
                + "for i in $(seq 100); do\n"
                + "  if listening; then exit 0; fi\n"
                + "  if ! kill -0 $server 2>/dev/null; then head -c 2000 " + log + "; rm -f " + log + "; exit " + DIED
                + "; fi\n"
                + "  sleep 0.05\n"
                + "done\n"
                + "exit 5\n";
    }

    /** The nodes whose interfaces carry {@code address}, asked of the live lab (a learner may have moved it). */
    private static List<String> ownersOf(LabRuntime runtime, String labId, String address)
            throws EngineUnavailableException, NodeNotFoundException {
        List<String> owners = new ArrayList<>();
        for (NodeStatus node : runtime.status(labId)) {
            if (!node.running()) {
                continue;
            }
            ExecResult addresses = runtime.exec(labId, node.node(),
                    List.of("ip", "-o", "addr", "show", "to", address), START_TIMEOUT);
            if (addresses.ok() && !addresses.stdout().isBlank()) {
                owners.add(node.node());
            }
        }
        return owners;
    }
}
