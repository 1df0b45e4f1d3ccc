package dev.tclab.stats;

import dev.tclab.tc.QdiscStats;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Per-second rates from the difference between two samples of the same counters. Not thread-safe: one sampler
 * feeds it one round at a time.
 */
final class RateTracker {

    private record Previous(long nanos, long[] values) {}

    private final Map<String, Previous> previous = new HashMap<>();
    private final Set<String> seenThisRound = new HashSet<>();

    /** Rates of one qdisc or class since the last round, or null when there is no usable previous sample. */
    StatsFrames.Rates rates(String key, long nanos, QdiscStats now) {
        double[] perSecond = perSecond(key, nanos, now.bytes() * 8, now.packets(), now.drops(), now.overlimits());
        return perSecond == null ? null : new StatsFrames.Rates(perSecond[0], perSecond[1], perSecond[2], perSecond[3]);
    }

    /**
     * Per-second deltas of any monotonic counters under {@code key}; null on the first sighting, when time did not
     * advance, or when a counter went backwards (the qdisc was replaced, so its counters restarted).
     */
    double[] perSecond(String key, long nanos, long... values) {
        seenThisRound.add(key);
        Previous before = previous.put(key, new Previous(nanos, values));
        if (before == null || nanos <= before.nanos() || before.values().length != values.length) {
            return null;
        }
        double seconds = (nanos - before.nanos()) / 1e9;
        double[] rates = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            long delta = values[i] - before.values()[i];
            if (delta < 0) {
                return null;
            }
            rates[i] = delta / seconds;
        }
        return rates;
    }

    /** Forgets counters that were not seen in the round that just ended (deleted qdiscs, vanished devices). */
    void endRound() {
        previous.keySet().retainAll(seenThisRound);
        seenThisRound.clear();
    }
}
