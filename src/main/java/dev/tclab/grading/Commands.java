package dev.tclab.grading;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The exact command lines the platform runs for each measurement kind, and how long each may take. */
final class Commands {

    private static final Duration TC_TIMEOUT = Duration.ofSeconds(15);

    private Commands() {
    }

    static List<String> argv(Measurement m) {
        return switch (m.kind()) {
            case IPERF3 -> iperf3(m);
            case PING -> ping(m);
            case QDISC -> m.options().containsKey("dev")
                    ? List.of("tc", "-s", "-j", "qdisc", "show", "dev", m.option("dev", ""))
                    : List.of("tc", "-s", "-j", "qdisc", "show");
            case CLASSES -> List.of("tc", "-s", "class", "show", "dev", m.option("dev", ""));
            case FILTERS -> {
                List<String> argv = new ArrayList<>(List.of("tc", "-s", "filter", "show", "dev", m.option("dev", "")));
                if (m.options().containsKey("parent")) {
                    argv.addAll(List.of("parent", m.option("parent", "")));
                }
                yield argv;
            }
            case COMMAND -> List.of("sh", "-c", m.option("command", ""));
        };
    }

    /** The iperf3 client against the platform's own one-off server on {@code port} (see {@link IperfServer}). */
    static List<String> iperf3Client(Measurement m, int port) {
        List<String> argv = iperf3(m);
        argv.addAll(List.of("-p", Integer.toString(port)));
        return argv;
    }

    /** Congestion control is pinned to cubic: the host's default (bbr) does not fill buffers, so no bloat would show. */
    private static List<String> iperf3(Measurement m) {
        List<String> argv = new ArrayList<>(List.of("iperf3", "-c", m.option("server", ""), "-J", "-C", "cubic",
                "-t", m.option("seconds", "5")));
        if (Boolean.parseBoolean(yes(m.option("reverse", "false")))) {
            argv.add("-R");
        }
        if (Boolean.parseBoolean(yes(m.option("udp", "false")))) {
            argv.add("-u");
            if (m.options().containsKey("bitrate")) {
                double bits = Quantity.parse(m.option("bitrate", "")).quantity().in(Unit.BIT_PER_S);
                argv.addAll(List.of("-b", String.valueOf(Math.round(bits))));
            }
        }
        return argv;
    }

    private static List<String> ping(Measurement m) {
        int count = Integer.parseInt(m.option("count", "10"));
        double interval = Double.parseDouble(m.option("interval", "0.2"));
        // -w ends ping even when replies stop coming, so a dead link fails the check instead of hanging it.
        long deadline = (long) Math.ceil(count * interval) + 2;
        return List.of("ping", "-q", "-c", String.valueOf(count), "-i", String.format(Locale.ROOT, "%s", m.option("interval", "0.2")),
                "-w", String.valueOf(deadline), m.option("target", ""));
    }

    private static String yes(String value) {
        return value.equals("yes") ? "true" : value;
    }

    static Duration timeout(Measurement m) {
        return switch (m.kind()) {
            case IPERF3 -> Duration.ofSeconds(Long.parseLong(m.option("seconds", "5")) + 15);
            case PING -> Duration.ofSeconds((long) Math.ceil(Integer.parseInt(m.option("count", "10"))
                    * Double.parseDouble(m.option("interval", "0.2"))) + 10);
            case COMMAND -> Duration.ofSeconds(30);
            default -> TC_TIMEOUT;
        };
    }
}
