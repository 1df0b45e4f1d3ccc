package dev.tclab.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LatencyTrackerTest {

    private static final long T0 = 1_796_098_578_000L;
    private final LatencyTracker tracker = new LatencyTracker(200);

    private static PingLine reply(int seq, long printedMs, double rtt) {
        return new PingLine.Reply(seq, printedMs * 1000, rtt);
    }

    private static PingLine noAnswer(int seq, long printedMs) {
        return new PingLine.NoAnswer(seq, printedMs * 1000);
    }

    private static StatsFrames.ProbePoint rtt(long time, double ms) {
        return new StatsFrames.ProbePoint(time, ms, false);
    }

    private static StatsFrames.ProbePoint lost(long time) {
        return new StatsFrames.ProbePoint(time, null, true);
    }

    @Test
    void shouldPlaceEachRoundTripWhenItsPingLeft() {
        tracker.accept(reply(1, T0 + 50, 50.0));
        tracker.accept(reply(2, T0 + 251, 51.2));
        assertThat(tracker.take(T0 + 300)).containsExactly(rtt(T0, 50.0), rtt(T0 + 200, 51.2));
        assertThat(tracker.take(T0 + 800)).as("taken once").isEmpty();
    }

    @Test
    void shouldKeepALateReplyAsARoundTripNotALoss() {
        // A bloated queue: ping 1 is still out when ping 2 leaves, and comes back 600 ms after it left.
        tracker.accept(noAnswer(1, T0 + 200));
        tracker.accept(noAnswer(2, T0 + 400));
        tracker.accept(reply(1, T0 + 600, 600));
        tracker.accept(reply(2, T0 + 800, 600));
        assertThat(tracker.take(T0 + 5_000)).containsExactly(rtt(T0, 600), rtt(T0 + 200, 600));
    }

    @Test
    void shouldCountAPingAsLostWhenALaterOneCameBackFirstOrItWaitedTooLong() {
        tracker.accept(noAnswer(1, T0 + 200));
        tracker.accept(reply(2, T0 + 210, 10));
        tracker.accept(noAnswer(3, T0 + 600));
        assertThat(tracker.take(T0 + 700)).as("3 may still come back").containsExactly(lost(T0), rtt(T0 + 200, 10));
        assertThat(tracker.take(T0 + 400 + LatencyTracker.LOST_AFTER_MS)).containsExactly(lost(T0 + 400));
        tracker.accept(reply(3, T0 + 3_500, 3_100));
        assertThat(tracker.take(T0 + 4_000))
                .as("a reply after its ping counted as lost is not a second point")
                .isEmpty();
    }

    @Test
    void shouldFollowSequenceNumbersAcrossTheirWrap() {
        tracker.accept(noAnswer(65535, T0 + 200));
        tracker.accept(reply(0, T0 + 210, 10));
        assertThat(tracker.take(T0 + 300)).containsExactly(lost(T0), rtt(T0 + 200, 10));
    }

    @Test
    void shouldStayBoundedUnderAFloodOfLines() {
        for (int seq = 1; seq <= 10_000; seq++) {
            tracker.accept(noAnswer(seq, T0 + seq));
        }
        for (int seq = 1; seq <= 10_000; seq++) {
            tracker.accept(reply(seq, T0 + seq, 1));
        }
        List<StatsFrames.ProbePoint> points = tracker.take(T0 + 20_000);
        assertThat(points).hasSize(LatencyTracker.MAX_POINTS);
        assertThat(tracker.take(T0 + 20_000)).isEmpty();
    }
}
