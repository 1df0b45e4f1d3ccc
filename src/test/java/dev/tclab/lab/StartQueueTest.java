package dev.tclab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.runtime.topology.Topology;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StartQueueTest {

    private final Topology topology = TestTopologies.load("two-node");
    private final Instant now = Instant.parse("2026-12-01T10:00:00Z");

    private Lab lab(String owner) {
        return Lab.queued(owner, owner, "x", Map.of(), topology, now);
    }

    @Test
    void shouldHandOutLabsInArrivalOrderSkippingStoppedOnes() {
        StartQueue queue = new StartQueue(3);
        Lab a = lab("a");
        Lab b = lab("b");
        Lab c = lab("c");
        queue.add(a);
        queue.add(b);
        queue.add(c);
        for (Lab lab : new Lab[] {a, b, c}) {
            queue.recorded(lab);
        }
        assertThat(queue.isFull()).isTrue();
        b.stopped("Stopped by the learner.", now);
        assertThat(queue.take(2)).containsExactly(a, c);
        assertThat(a.phase()).isEqualTo(LabPhase.STARTING);
        assertThat(queue.isEmpty()).isTrue();
    }

    @Test
    void shouldWaitAtALabNotRecordedYetSoNoneBehindItJumpsAhead() {
        StartQueue queue = new StartQueue(3);
        Lab a = lab("a");
        Lab b = lab("b");
        queue.add(a);
        queue.add(b);
        queue.recorded(b);
        assertThat(queue.take(2))
                .as("a is not in the registry yet, and b comes after it")
                .isEmpty();
        queue.recorded(a);
        assertThat(queue.take(2)).containsExactly(a, b);
        Lab c = lab("c");
        queue.add(c);
        queue.remove(c);
        assertThat(queue.isEmpty())
                .as("a lab stopped before it was recorded leaves no trace")
                .isTrue();
    }

    @Test
    void shouldGiveNoEstimateUntilTwoSlotsFreedThenScaleItWithThePosition() {
        StartQueue queue = new StartQueue(5);
        Lab a = lab("a");
        Lab b = lab("b");
        queue.add(a);
        queue.add(b);
        assertThat(queue.spotOf(b, now).orElseThrow().estimatedWait()).isEmpty();
        queue.slotFreed(now.minusSeconds(120));
        assertThat(queue.spotOf(b, now).orElseThrow().estimatedWait()).isEmpty();
        queue.slotFreed(now.minusSeconds(60));
        // Two frees within the last 120 s: one every 60 s, so position 1 waits about 60 s and position 2 about 120 s.
        assertThat(queue.spotOf(a, now).orElseThrow().estimatedWait()).contains(Duration.ofSeconds(60));
        assertThat(queue.spotOf(b, now).orElseThrow().estimatedWait()).contains(Duration.ofSeconds(120));
        assertThat(queue.spotOf(lab("other"), now)).isEmpty();
    }

    @Test
    void shouldForgetFreesOlderThanHalfAnHour() {
        StartQueue queue = new StartQueue(5);
        Lab a = lab("a");
        queue.add(a);
        queue.slotFreed(now.minus(Duration.ofMinutes(50)));
        queue.slotFreed(now.minus(Duration.ofMinutes(40)));
        assertThat(queue.spotOf(a, now).orElseThrow().estimatedWait()).isEmpty();
    }
}
