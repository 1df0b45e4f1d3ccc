package dev.tclab.stats;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns one probe's ping lines into plot points: a round trip for each reply, a loss for each ping that got none.
 * A point's time is when its ping left (ms since the epoch, the clock the statistics samples use), so a loss found
 * later still lands where it happened. A ping counts as lost once a later ping's reply came back first (replies come
 * back in order on a lab's links) or once it waited {@link #LOST_AFTER_MS}. Bounded whatever ping prints: few
 * pending pings, few points between two takes. Not thread-safe.
 */
final class LatencyTracker {

    /** Longer than any queue of the built-in labs holds a packet (their deepest buffers hold 800 ms each way). */
    static final long LOST_AFTER_MS = 3_000;
    /** More points than this between two takes (a reply flood) are dropped: the plot shows a few per second. */
    static final int MAX_POINTS = 100;

    private static final int MAX_PENDING = 64;

    private final long intervalMs;
    /** Pings without a reply yet: sequence number to the time it left. */
    private final Map<Integer, Long> pending = new LinkedHashMap<>();

    private final List<StatsFrames.ProbePoint> points = new ArrayList<>();

    LatencyTracker(long intervalMs) {
        this.intervalMs = intervalMs;
    }

    void accept(PingLine line) {
        if (line instanceof PingLine.Reply reply) {
            reply(reply);
        } else if (line instanceof PingLine.NoAnswer none) {
            if (pending.size() >= MAX_PENDING) {
                Iterator<Map.Entry<Integer, Long>> oldest = pending.entrySet().iterator();
                add(new StatsFrames.ProbePoint(oldest.next().getValue(), null, true));
                oldest.remove();
            }
            // Printed as the next ping left, one interval after this one.
            pending.put(none.seq(), none.printedMicros() / 1000 - intervalMs);
        }
    }

    private void reply(PingLine.Reply reply) {
        if (reply.rttMs() >= LOST_AFTER_MS) {
            return; // already counted as lost
        }
        pending.remove(reply.seq());
        for (Iterator<Map.Entry<Integer, Long>> it = pending.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Integer, Long> earlier = it.next();
            if (isBefore(earlier.getKey(), reply.seq())) {
                add(new StatsFrames.ProbePoint(earlier.getValue(), null, true));
                it.remove();
            }
        }
        long left = reply.printedMicros() / 1000 - Math.round(reply.rttMs());
        add(new StatsFrames.ProbePoint(left, reply.rttMs(), false));
    }

    /** The points since the last take, oldest ping first, after counting pings older than {@code nowMs} as lost. */
    List<StatsFrames.ProbePoint> take(long nowMs) {
        for (Iterator<Map.Entry<Integer, Long>> it = pending.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Integer, Long> ping = it.next();
            if (nowMs - ping.getValue() >= LOST_AFTER_MS) {
                add(new StatsFrames.ProbePoint(ping.getValue(), null, true));
                it.remove();
            }
        }
        List<StatsFrames.ProbePoint> taken = new ArrayList<>(points);
        taken.sort((a, b) -> Long.compare(a.time(), b.time()));
        points.clear();
        return taken;
    }

    /** Forgets pending pings: a new ping process numbers from 1 again. */
    void restart() {
        pending.clear();
    }

    private void add(StatsFrames.ProbePoint point) {
        if (points.size() < MAX_POINTS) {
            points.add(point);
        }
    }

    /** Sequence numbers are 16 bits and wrap (after 3.6 hours at 5 pings a second). */
    private static boolean isBefore(int a, int b) {
        int ahead = (b - a) & 0xffff;
        return ahead != 0 && ahead < 0x8000;
    }
}
