package dev.tclab.tc;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Numbers as tc prints them in text output: rates with decimal prefixes ({@code 48Mbit} = 48 000 000 bit/s,
 * {@code 4500Kbit}) and sizes with binary prefixes ({@code 32Kb} = 32 768 bytes, {@code 4Mb}), as iproute2's
 * sprint_rate and sprint_size write them.
 */
final class TcText {

    private static final Pattern RATE = Pattern.compile("(\\d+(?:\\.\\d+)?)([KMGT]?)bit", Pattern.CASE_INSENSITIVE);
    private static final Pattern SIZE =
            Pattern.compile("(\\d+(?:\\.\\d+)?)([KMG]?)b(?:/\\d+)?", Pattern.CASE_INSENSITIVE);
    static final Pattern SENT =
            Pattern.compile("Sent (\\d+) bytes (\\d+) pkt \\(dropped (\\d+), overlimits (\\d+) requeues (\\d+)\\)");
    static final Pattern BACKLOG = Pattern.compile("backlog (\\d+(?:\\.\\d+)?[KMG]?b) (\\d+)p");

    private TcText() {}

    /** Bits per second. */
    static long rate(String text) throws TcParseException {
        Matcher m = RATE.matcher(text);
        if (!m.matches()) {
            throw new TcParseException("expected a rate like 48Mbit, found '" + text + "'");
        }
        return Math.round(Double.parseDouble(m.group(1)) * decimal(m.group(2)));
    }

    /** Bytes. */
    static long size(String text) throws TcParseException {
        Matcher m = SIZE.matcher(text);
        if (!m.matches()) {
            throw new TcParseException("expected a size like 1590b or 32Kb, found '" + text + "'");
        }
        return Math.round(Double.parseDouble(m.group(1)) * binary(m.group(2)));
    }

    private static double decimal(String prefix) {
        return switch (prefix.toUpperCase(Locale.ROOT)) {
            case "K" -> 1e3;
            case "M" -> 1e6;
            case "G" -> 1e9;
            case "T" -> 1e12;
            default -> 1;
        };
    }

    private static double binary(String prefix) {
        return switch (prefix.toUpperCase(Locale.ROOT)) {
            case "K" -> 1024;
            case "M" -> 1024 * 1024;
            case "G" -> 1024 * 1024 * 1024;
            default -> 1;
        };
    }
}
