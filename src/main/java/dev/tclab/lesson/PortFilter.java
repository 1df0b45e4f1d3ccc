package dev.tclab.lesson;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A tc filter that classifies by a transport port, as a lesson's command writes it: u32's {@code match ip dport 5201
 * 0xffff} ({@code sport}, and {@code match tcp|udp dst|src}), or flower's {@code dst_port 5201} ({@code src_port},
 * ranges {@code 5201-5210}). A u32 match whose mask is 0 matches every port, so it is not one.
 *
 * @param match the selector as written, e.g. {@code dport 5201}
 * @param port  the (first) port it matches
 */
record PortFilter(String match, int port) {

    private static final Pattern FILTER =
            Pattern.compile("\\btc\\s+(?:-\\S+\\s+)*filter\\s+(?:add|replace|change|append)\\b");
    private static final Pattern U32 = Pattern.compile(
            "\\bmatch\\s+(ip\\s+(?:dport|sport)|(?:tcp|udp)\\s+(?:dst|src))\\s+(0x[0-9a-fA-F]+|\\d+)(?:\\s+(0x[0-9a-fA-F]+|\\d+))?");
    private static final Pattern FLOWER = Pattern.compile("\\b(dst_port|src_port)\\s+(\\d+)(?:-\\d+)?");

    /** The port selector of a {@code tc filter add|replace|change} command, if it has one. */
    static Optional<PortFilter> in(String command) {
        if (!FILTER.matcher(command).find()) {
            return Optional.empty();
        }
        Matcher u32 = U32.matcher(command);
        if (u32.find()) {
            long mask = u32.group(3) == null ? 0xffff : number(u32.group(3));
            if (mask == 0) {
                return Optional.empty();
            }
            String selector = u32.group(1).replaceAll("\\s+", " ").replaceFirst("^ip ", "");
            return Optional.of(new PortFilter(selector + " " + u32.group(2), (int) number(u32.group(2))));
        }
        Matcher flower = FLOWER.matcher(command);
        if (command.contains("flower") && flower.find()) {
            return Optional.of(new PortFilter(flower.group(), Integer.parseInt(flower.group(2))));
        }
        return Optional.empty();
    }

    private static long number(String text) {
        return text.startsWith("0x") ? Long.parseLong(text.substring(2), 16) : Long.parseLong(text);
    }
}
