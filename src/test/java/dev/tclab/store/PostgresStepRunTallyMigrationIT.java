package dev.tclab.store;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The step tally's upgrade (see {@link StepRunTallyMigration}) on a real PostgreSQL, in a schema of its own. */
class PostgresStepRunTallyMigrationIT {

    @Test
    void shouldTallyTheRunsAnOlderVersionKept() throws Exception {
        String schema = "m_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try {
            StepRunTallyMigration.shouldTallyTheRunsAnOlderVersionKept(
                    PostgresProfile.url(), PostgresProfile.user(), PostgresProfile.password(), schema);
        } finally {
            try (Connection c = DriverManager.getConnection(
                            PostgresProfile.url(), PostgresProfile.user(), PostgresProfile.password());
                    Statement s = c.createStatement()) {
                s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            }
        }
    }
}
