package dev.tclab.stats;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One line of iputils {@code ping -n -D -O}: a reply with its round trip, a ping that had no reply by the time the
 * next one left ({@code -O}), or anything else (the header, errors, duplicates), which carries no measurement.
 * {@code -D} prefixes both with the time of printing, in seconds since the epoch with microseconds.
 */
sealed interface PingLine {

    Pattern REPLY = Pattern.compile("\\[(\\d{1,12})\\.(\\d{6})] \\d+ bytes from [^:]+: icmp_seq=(\\d{1,5}) .*"
            + "time=(\\d{1,7}(?:\\.\\d{1,3})?) ms");
    Pattern NO_ANSWER = Pattern.compile("\\[(\\d{1,12})\\.(\\d{6})] no answer yet for icmp_seq=(\\d{1,5})");

    /** A reply to ping {@code seq}, printed at {@code printedMicros}, {@code rttMs} after that ping left. */
    record Reply(int seq, long printedMicros, double rttMs) implements PingLine {}

    /** Ping {@code seq} had no reply yet when the next one left, at {@code printedMicros}. */
    record NoAnswer(int seq, long printedMicros) implements PingLine {}

    /** Any other line; {@code text} may say why ping stopped (e.g. "connect: Network is unreachable"). */
    record Other(String text) implements PingLine {}

    /** A duplicate reply (a learner can forge them) ends in "(DUP!)", not "ms": it is an {@link Other}. */
    static PingLine parse(String line) {
        Matcher reply = REPLY.matcher(line);
        if (reply.matches()) {
            return new Reply(Integer.parseInt(reply.group(3)), micros(reply), Double.parseDouble(reply.group(4)));
        }
        Matcher none = NO_ANSWER.matcher(line);
        if (none.matches()) {
            return new NoAnswer(Integer.parseInt(none.group(3)), micros(none));
        }
        return new Other(line);
    }

    private static long micros(Matcher m) {
        return Long.parseLong(m.group(1)) * 1_000_000L + Long.parseLong(m.group(2));
    }
}
