package dev.tclab.stats;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatsHistoryTest {

    private final ObjectMapper json = new ObjectMapper();
    private final MutableClock clock = new MutableClock();

    private static String sample(String node, long time, int padding) {
        return "{\"type\":\"sample\",\"node\":\"" + node + "\",\"time\":" + time + ",\"pad\":\"" + "x".repeat(padding)
                + "\"}";
    }

    private List<Long> times(StatsHistory history, String labId) throws Exception {
        List<Long> times = new ArrayList<>();
        JsonNode frame = json.readTree(history.frame(labId).orElseThrow());
        assertThat(frame.path("type").asText()).isEqualTo("history");
        frame.path("samples").forEach(s -> times.add(s.path("time").asLong()));
        return times;
    }

    @Test
    void shouldSendTheSamplesOfTheLastMinutesOldestFirstAsOneFrame() throws Exception {
        StatsHistory history = new StatsHistory(Duration.ofMinutes(5), 1 << 20, 1 << 20, clock);
        for (long t = 0; t < 400; t++) {
            history.record("lab", sample("client", t, 10));
            clock.advance(Duration.ofSeconds(1));
        }
        List<Long> times = times(history, "lab");
        assertThat(times).hasSize(300).isSorted();
        assertThat(times.get(0)).isEqualTo(100);
        assertThat(history.frame("other")).isEmpty();
    }

    @Test
    void shouldForgetSamplesOlderThanTheHistoryEvenWithNothingNewRecorded() {
        StatsHistory history = new StatsHistory(Duration.ofMinutes(5), 1 << 20, 1 << 20, clock);
        history.record("lab", sample("client", 1, 10));
        clock.advance(Duration.ofMinutes(6));
        assertThat(history.frame("lab")).isEmpty();
        history.record("other", sample("client", 1, 10));
        assertThat(history.totalChars()).isEqualTo(sample("client", 1, 10).length());
    }

    @Test
    void shouldKeepEachLabWithinItsShareDroppingItsOldestFirst() throws Exception {
        int size = sample("client", 100, 1000).length();
        StatsHistory history = new StatsHistory(Duration.ofMinutes(5), 10L * size, 100L * size, clock);
        for (long t = 100; t < 150; t++) {
            history.record("lab", sample("client", t, 1000));
        }
        assertThat(times(history, "lab")).containsExactly(140L, 141L, 142L, 143L, 144L, 145L, 146L, 147L, 148L, 149L);
        assertThat(history.totalChars()).isEqualTo(10L * size);
    }

    @Test
    void shouldTakeFromTheBiggestLabWhenAllTogetherHoldTooMuch() throws Exception {
        int size = sample("client", 100, 1000).length();
        StatsHistory history = new StatsHistory(Duration.ofMinutes(5), 8L * size, 10L * size, clock);
        for (long t = 100; t < 108; t++) {
            history.record("big", sample("client", t, 1000));
        }
        for (long t = 100; t < 104; t++) {
            history.record("small", sample("client", t, 1000));
        }
        assertThat(history.totalChars()).isEqualTo(10L * size);
        assertThat(times(history, "small")).hasSize(4);
        assertThat(times(history, "big")).containsExactly(102L, 103L, 104L, 105L, 106L, 107L);
    }

    @Test
    void shouldKeepNoFrameBiggerThanALabsShareNorAnythingOnceTheLabEnded() {
        StatsHistory history = new StatsHistory(Duration.ofMinutes(5), 100, 1000, clock);
        history.record("lab", sample("client", 1, 200));
        assertThat(history.frame("lab")).isEmpty();
        history.record("lab", sample("client", 1, 10));
        history.forget("lab");
        assertThat(history.frame("lab")).isEmpty();
        assertThat(history.totalChars()).isZero();
    }

    @Test
    void shouldKeepNothingWhenTheHistoryIsOff() {
        StatsHistory history = new StatsHistory(Duration.ZERO, 1000, 1000, clock);
        history.record("lab", sample("client", 1, 10));
        assertThat(history.frame("lab")).isEmpty();
    }

    private static final class MutableClock extends Clock {
        private Instant now = Instant.parse("2026-12-01T00:00:00Z");

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public ZoneId getZone() {
            return ZoneId.of("UTC");
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
