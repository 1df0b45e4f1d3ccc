package dev.tclab.lesson;

import dev.tclab.runtime.topology.Topology;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The iperf3 servers a lab's own setup starts ({@code iperf3 -s -D} in a node's lab.yml {@code exec}), by the port
 * they listen on: 5201, iperf3's default, or the one {@code -p N} / {@code --port N} names. Checks never use them
 * (each flow has a one-off server of the platform's), but a check's fixed {@code port} cannot be one of them.
 */
final class LabIperfServers {

    /** iperf3's port when {@code -p} names none. */
    static final int DEFAULT_PORT = 5201;

    /** {@code -s}, {@code --server}, or a cluster of short options holding s ({@code -sD}). */
    private static final Pattern SERVER = Pattern.compile("(?:^|\\s)(?:--server|-[a-zA-Z]*s[a-zA-Z]*)(?=\\s|$)");

    private static final Pattern PORT = Pattern.compile("(?:^|\\s)(?:-p\\s*|--port(?:\\s+|=))(\\d+)(?=\\s|$)");

    private LabIperfServers() {}

    /** The port each iperf3 server of the node's setup listens on, with the setup command that starts it. */
    static Map<Integer, String> of(Topology.Node node) {
        Map<Integer, String> servers = new LinkedHashMap<>();
        for (String command : node.exec()) {
            listening(command).ifPresent(port -> servers.putIfAbsent(port, command));
        }
        return servers;
    }

    /** The port an {@code iperf3} server command listens on; empty for any other command (a client, say). */
    static Optional<Integer> listening(String command) {
        int at = command.indexOf("iperf3");
        if (at < 0) {
            return Optional.empty();
        }
        String args = command.substring(at + "iperf3".length());
        if (!SERVER.matcher(args).find() || List.of(args.split("\\s+")).contains("-c")) {
            return Optional.empty();
        }
        Matcher port = PORT.matcher(args);
        return Optional.of(port.find() ? Integer.parseInt(port.group(1)) : DEFAULT_PORT);
    }
}
