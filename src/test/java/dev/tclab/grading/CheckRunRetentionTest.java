package dev.tclab.grading;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tclab.grading.run.CheckResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The retention's policy: what it asks the store to delete, and settings it refuses (the store's SQL: StoreContract). */
class CheckRunRetentionTest {

    private static final Instant NOW = Instant.parse("2026-12-01T08:00:00Z");

    /** Records each prune request. */
    private static final class PruneLog implements CheckRunLog {
        final List<Object[]> prunes = new ArrayList<>();

        @Override
        public void started(CheckRun run) {}

        @Override
        public void resultAdded(CheckRun run, int position, CheckResult result) {}

        @Override
        public void finished(CheckRun run) {}

        @Override
        public Optional<CheckRunView> find(String labId, String runId, String owner) {
            return Optional.empty();
        }

        @Override
        public Map<String, CheckRunView> lastFinishedByStep(String labId, String owner) {
            return Map.of();
        }

        @Override
        public int prune(int keepPerStep, Instant startedBefore, int maxRuns) {
            prunes.add(new Object[] {keepPerStep, startedBefore, maxRuns});
            return 3;
        }
    }

    @Test
    void shouldAskForTheNewestRunsPerStepAndTheAgeInOneBoundedRound() {
        PruneLog log = new PruneLog();
        var retention = new CheckRunRetention(log, 10, Duration.ofDays(30), Clock.fixed(NOW, ZoneOffset.UTC));

        assertThat(retention.prune()).isEqualTo(3);
        assertThat(log.prunes)
                .containsExactly(
                        new Object[] {10, NOW.minus(Duration.ofDays(30)), CheckRunRetention.MAX_RUNS_PER_ROUND});
        assertThat(retention.rule()).isEqualTo("each step keeps its newest 10 runs, and only its latest after 30 days");
        assertThat(new CheckRunRetention(log, 1, Duration.ofHours(36), Clock.systemUTC()).rule())
                .endsWith("after 36 hours");
    }

    @Test
    void shouldRefuseToKeepNoRunOrForNoTime() {
        PruneLog log = new PruneLog();
        assertThatThrownBy(() -> new CheckRunRetention(log, 0, Duration.ofDays(30), Clock.systemUTC()))
                .hasMessageContaining("tclab.grading.keep-runs-per-step is 0; it must be at least 1");
        assertThatThrownBy(() -> new CheckRunRetention(log, 10, Duration.ZERO, Clock.systemUTC()))
                .hasMessageContaining("tclab.grading.keep-runs-for is PT0S; it must be longer than zero");
    }
}
