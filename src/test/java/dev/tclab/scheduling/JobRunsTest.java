package dev.tclab.scheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A job counts as stalled after three of its periods without a run, from its first due time on. */
class JobRunsTest {

    private Instant now = Instant.parse("2026-12-06T00:00:00Z");
    private final JobRuns runs = new JobRuns(() -> now);

    @Test
    void shouldNameAJobNotRunForThreeOfItsPeriods() {
        runs.register("dev.tclab.lab.LabService#cullScheduled", Duration.ofSeconds(30), now);
        runs.register("dev.tclab.system.SystemStatus#refresh", Duration.ofSeconds(5), now);
        now = now.plusSeconds(14);
        runs.started("dev.tclab.system.SystemStatus#refresh");
        now = now.plusSeconds(16);
        assertEquals(
                List.of("SystemStatus.refresh"),
                runs.stalled().stream().map(JobRuns.Stalled::job).toList(),
                "16 s after its last run, more than 3 x 5 s; the cull (30 s) is within 90 s");
        assertEquals(
                "SystemStatus.refresh has not run for 16 s (every 5 s)",
                runs.stalled().get(0).describe());
        now = now.plusSeconds(61);
        assertEquals(2, runs.stalled().size(), "91 s without a cull");
    }

    @Test
    void shouldWaitForAJobsDelayAndSayWhatItsLastRunThrew() {
        runs.register(
                "dev.tclab.grading.CheckRunRetention#pruneInBackground", Duration.ofMinutes(10), now.plusSeconds(60));
        now = now.plusSeconds(60 + 30 * 60);
        assertTrue(runs.stalled().isEmpty(), "30 min after its first due time is three periods exactly");
        runs.started("dev.tclab.grading.CheckRunRetention#pruneInBackground");
        runs.failed("dev.tclab.grading.CheckRunRetention#pruneInBackground", new OutOfMemoryError("Java heap space"));
        runs.ended("dev.tclab.grading.CheckRunRetention#pruneInBackground");
        now = now.plusSeconds(30 * 60 + 1);
        assertEquals(
                "CheckRunRetention.pruneInBackground has not run for 1801 s (every 600 s); its last run failed:"
                        + " java.lang.OutOfMemoryError: Java heap space",
                runs.stalled().get(0).describe());
    }

    @Test
    void shouldIgnoreRunsOfAJobItDoesNotWatch() {
        runs.started("dev.tclab.Unknown#job");
        assertTrue(runs.jobs().isEmpty());
        assertTrue(runs.stalled().isEmpty());
    }
}
