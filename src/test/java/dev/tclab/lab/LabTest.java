package dev.tclab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A lab's phase changes are atomic steps that never bring an ended lab back. */
class LabTest {

    private final Instant now = Instant.parse("2026-12-01T10:00:00Z");
    private final Lab lab = new Lab("l1", "ann", "tbf", Map.of("rate", "10mbit"), TestTopologies.load("two-node"), now);

    @Test
    void shouldNotBecomeRunningOnceStoppedWhileStarting() {
        assertThat(lab.stopped("Stopped by the learner.", now)).isEqualTo(LabPhase.STARTING);
        assertThat(lab.ready(now)).isFalse();
        assertThat(lab.phase()).isEqualTo(LabPhase.STOPPED);
        assertThat(lab.readyAt()).isNull();
    }

    @Test
    void shouldKeepTheFirstEndAndItsReason() {
        lab.ready(now);
        assertThat(lab.failed("The lab died.", now)).isTrue();
        assertThat(lab.stopped("Stopped by the learner.", now)).isNull();
        assertThat(lab.failed("again", now)).isFalse();
        assertThat(lab.phase()).isEqualTo(LabPhase.FAILED);
        assertThat(lab.reason()).isEqualTo("The lab died.");
    }

    @Test
    void shouldCountEveryPhaseChangeInItsRecord() {
        LabRecord starting = lab.record();
        lab.ready(now.plusSeconds(1));
        LabRecord running = lab.record();
        lab.stopped("Stopped by the learner.", now.plusSeconds(9));
        LabRecord stopped = lab.record();
        assertThat(starting.version()).isLessThan(running.version());
        assertThat(running.version()).isLessThan(stopped.version());
        assertThat(stopped.phase()).isEqualTo(LabPhase.STOPPED);
        assertThat(stopped.endedAt()).isEqualTo(now.plusSeconds(9));
        assertThat(stopped.parameters()).containsEntry("rate", "10mbit");
    }
}
