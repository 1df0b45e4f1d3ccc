package dev.tclab.grading.parse;

/**
 * A ping summary. The round-trip figures are null when no reply came back (tc prints no rtt line then);
 * {@code mdevMs} is also null for busybox ping, which does not print it.
 */
public record PingResult(
        int transmitted, int received, double lossPercent, Double minMs, Double avgMs, Double maxMs, Double mdevMs) {}
