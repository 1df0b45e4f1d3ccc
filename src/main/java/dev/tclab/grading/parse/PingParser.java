package dev.tclab.grading.parse;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses the summary of iputils ping ({@code rtt min/avg/max/mdev}) and busybox ping ({@code round-trip min/avg/max}). */
public final class PingParser {

    private static final Pattern COUNTS = Pattern.compile(
            "(\\d+) packets transmitted, (\\d+) (?:packets )?received,(?: \\+\\d+ errors,)?(?: \\+\\d+ duplicates,)? (\\d+(?:\\.\\d+)?)% packet loss");
    private static final Pattern IPUTILS_RTT =
            Pattern.compile("rtt min/avg/max/mdev = ([\\d.]+)/([\\d.]+)/([\\d.]+)/([\\d.]+) ms");
    private static final Pattern BUSYBOX_RTT =
            Pattern.compile("round-trip min/avg/max = ([\\d.]+)/([\\d.]+)/([\\d.]+) ms");

    private PingParser() {}

    public static PingResult parse(String output) throws OutputParseException {
        Matcher counts = COUNTS.matcher(output == null ? "" : output);
        if (!counts.find()) {
            throw new OutputParseException(
                    "expected ping's summary line 'N packets transmitted, N received, N% packet loss', found "
                            + OutputParseException.excerpt(output));
        }
        int transmitted = Integer.parseInt(counts.group(1));
        int received = Integer.parseInt(counts.group(2));
        double loss = Double.parseDouble(counts.group(3));
        Matcher iputils = IPUTILS_RTT.matcher(output);
        if (iputils.find()) {
            return new PingResult(
                    transmitted, received, loss, num(iputils, 1), num(iputils, 2), num(iputils, 3), num(iputils, 4));
        }
        Matcher busybox = BUSYBOX_RTT.matcher(output);
        if (busybox.find()) {
            return new PingResult(transmitted, received, loss, num(busybox, 1), num(busybox, 2), num(busybox, 3), null);
        }
        if (received > 0) {
            throw new OutputParseException(
                    "expected a round-trip line (rtt min/avg/max/mdev or round-trip min/avg/max) after " + received
                            + " replies, found " + OutputParseException.excerpt(output));
        }
        return new PingResult(transmitted, 0, loss, null, null, null, null);
    }

    private static double num(Matcher m, int group) {
        return Double.parseDouble(m.group(group));
    }
}
