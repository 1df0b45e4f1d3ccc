package dev.tclab.grading.run;

import dev.tclab.runtime.CommandSequence;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Proves, from a measuring node's own network namespace and right before it measures, that its traffic to an address
 * leaves by one of its lab links (issue 43, rows 3 and 4): a learner who adds a {@code local} route for the server's
 * address, or policy rules that send only some protocols to the server, has the node answer its own pings or feed a
 * relay, and the measurement would grade a link nothing crossed. The proof asks the kernel itself ({@code ip route
 * get}, which follows the policy rules), with the platform's own {@code ip}, and refuses:
 * <ul>
 *   <li>a route that is not unicast ({@code local}, {@code broadcast}, {@code blackhole}, ...);</li>
 *   <li>a unicast route out of an interface that is not one of the node's lab links (lab.yml);</li>
 *   <li>any policy rule beyond the kernel's three defaults: a rule can pick a route by protocol or port, which
 *       {@code ip route get} without them does not see, and no lesson needs one.</li>
 * </ul>
 */
final class RouteProof {

    private static final String SEPARATOR = "--- rules";
    private static final Pattern IPV4 = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");
    /** The kernel's own rules: table local, main and default, at their fixed priorities. */
    private static final List<String> DEFAULT_RULES =
            List.of("0:\tfrom all lookup local", "32766:\tfrom all lookup main", "32767:\tfrom all lookup default");

    private RouteProof() {}

    /** The read, run in the measuring node's namespace right before the measurement, in the same exec. */
    static CommandSequence.Step read(String address) {
        return new CommandSequence.Step(
                List.of(
                        "sh",
                        "-c",
                        "ip -4 route get \"$1\" 2>&1; echo '" + SEPARATOR + "'; ip -4 rule show 2>&1",
                        "sh",
                        address),
                Duration.ofSeconds(5));
    }

    /**
     * Why the traffic of {@code node} to {@code address} would not cross one of its lab links {@code interfaces}, from
     * the output of {@link #read}; empty when it would.
     */
    static Optional<String> refusal(String node, String address, List<String> interfaces, String output) {
        int split = output.indexOf(SEPARATOR);
        if (split < 0) {
            return Optional.of("the platform could not read node " + node + "'s route to " + address
                    + "; check again, and reset the lab if this stays");
        }
        String route = output.substring(0, split).strip();
        String firstLine = route.lines().findFirst().orElse("").strip();
        List<String> words = Arrays.asList(firstLine.split("\\s+"));
        if (words.isEmpty() || !IPV4.matcher(words.get(0)).matches()) {
            String type = words.isEmpty() ? "" : words.get(0);
            if (type.equals("local")) {
                return Optional.of("node " + node + " has a local route for " + address + " (" + firstLine
                        + "), so its packets to " + address + " never leave the node and the replies did not come "
                        + "from the server node. Delete it (ip route del local " + address + " table local) and check "
                        + "again.");
            }
            return Optional.of("node " + node + " has no unicast route to " + address + " (ip route get says: "
                    + (firstLine.isEmpty() ? "nothing" : firstLine) + "), so nothing it sends there crosses the "
                    + "lab's link. Put the lab's routes back (or reset the lab) and check again.");
        }
        int dev = words.indexOf("dev");
        String device = dev >= 0 && dev + 1 < words.size() ? words.get(dev + 1) : "";
        if (!interfaces.contains(device)) {
            return Optional.of("node " + node + " sends to " + address + " out of "
                    + (device.isEmpty() ? "no interface" : device) + ", not out of its lab link"
                    + (interfaces.size() == 1 ? " " : "s ") + String.join(", ", interfaces) + " (" + firstLine
                    + "), so the measurement would not cross the link this check grades. Put the lab's routes back "
                    + "(or reset the lab) and check again.");
        }
        List<String> extra = output.substring(split + SEPARATOR.length())
                .strip()
                .lines()
                .map(RouteProof::normalRule)
                .filter(rule -> !rule.isEmpty() && !DEFAULT_RULES.contains(rule))
                .toList();
        if (!extra.isEmpty()) {
            String rule = extra.get(0).replace('\t', ' ');
            String priority = rule.substring(0, Math.max(0, rule.indexOf(':')));
            return Optional.of("node " + node + " has a routing rule of its own (" + rule + "), which can send "
                    + "some of its packets to " + address + " elsewhere, so the replies may not come from the server "
                    + "node. Grading needs the lab's plain routing: delete it (ip rule del pref " + priority
                    + ") and check again.");
        }
        return Optional.empty();
    }

    /** A rule line with its separator as {@code ip} prints it: {@code <priority>:<tab><selector> ...}. */
    private static String normalRule(String line) {
        String stripped = line.strip();
        int colon = stripped.indexOf(':');
        return colon < 0
                ? stripped
                : stripped.substring(0, colon + 1) + "\t"
                        + stripped.substring(colon + 1).strip();
    }
}
