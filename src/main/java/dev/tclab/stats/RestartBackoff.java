package dev.tclab.stats;

/**
 * How long a platform process in a lab (a statistics sampler, a latency probe) waits before it is started again after
 * it ended: 1 s, doubling with each failure in a row, at most 30 s, so a learner who keeps killing it costs little.
 */
final class RestartBackoff {

    private static final long MAX_MS = 30_000;

    private RestartBackoff() {}

    /** The delay after {@code failures} failures in a row (0: the first). */
    static long millis(int failures) {
        return Math.min(MAX_MS, 1000L << Math.min(failures, 5));
    }
}
