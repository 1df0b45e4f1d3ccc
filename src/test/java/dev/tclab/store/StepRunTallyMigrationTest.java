package dev.tclab.store;

import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The step tally's upgrade (see {@link StepRunTallyMigration}) on a fresh in-memory H2. */
class StepRunTallyMigrationTest {

    @Test
    void shouldTallyTheRunsAnOlderVersionKept() throws Exception {
        StepRunTallyMigration.shouldTallyTheRunsAnOlderVersionKept(
                "jdbc:h2:mem:tally-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "", null);
    }
}
