package dev.tclab.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.flywaydb.core.Flyway;

/**
 * The upgrade that starts the step tally (V70) on a database that already holds check runs: the tally must give the
 * figures the runs gave when they were counted on every read (attempts, first pass, latest run). Run on H2
 * ({@link StepRunTallyMigrationTest}) and PostgreSQL ({@link PostgresStepRunTallyMigrationIT}).
 */
final class StepRunTallyMigration {

    private static final OffsetDateTime T0 = OffsetDateTime.of(2026, 11, 30, 9, 0, 0, 0, ZoneOffset.UTC);

    private StepRunTallyMigration() {}

    static void shouldTallyTheRunsAnOlderVersionKept(String url, String user, String password, String schema)
            throws SQLException {
        flyway(url, user, password, schema, "40").migrate();
        try (Connection c = DriverManager.getConnection(url, user, password)) {
            if (schema != null) {
                c.setSchema(schema);
            }
            try (Statement s = c.createStatement()) {
                s.execute(
                        "INSERT INTO learner (id, created_at) VALUES ('ann', TIMESTAMP WITH TIME ZONE '2026-11-30 08:00:00+00')");
            }
            run(c, "r1", "shape", 0, "failed", 5);
            run(c, "r2", "shape", 10, "passed", 20);
            run(c, "r3", "shape", 30, "failed", 40);
            run(c, "r4", "baseline", 50, "measuring", -1); // never finished: the server stopped during it
            flyway(url, user, password, schema, "latest").migrate();
            try (PreparedStatement s = c.prepareStatement("SELECT step_id, attempts, first_run_at, first_passed_at,"
                            + " last_run_id, last_lab_id, last_state, last_detail, last_at FROM step_run_tally"
                            + " WHERE learner_id = 'ann' ORDER BY step_id");
                    ResultSet rs = s.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("baseline");
                assertThat(rs.getInt(2)).isEqualTo(1);
                assertThat(rs.getObject(4)).isNull();
                assertThat(rs.getString(5)).isEqualTo("r4");
                assertThat(rs.getString(7)).isEqualTo("measuring");
                assertThat(rs.getObject(9, OffsetDateTime.class).toInstant())
                        .isEqualTo(T0.plusSeconds(50).toInstant());
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("shape");
                assertThat(rs.getInt(2)).isEqualTo(3);
                assertThat(rs.getObject(3, OffsetDateTime.class).toInstant()).isEqualTo(T0.toInstant());
                assertThat(rs.getObject(4, OffsetDateTime.class).toInstant())
                        .isEqualTo(T0.plusSeconds(20).toInstant());
                assertThat(rs.getString(5)).isEqualTo("r3");
                assertThat(rs.getString(6)).isEqualTo("lab-1");
                assertThat(rs.getString(7)).isEqualTo("failed");
                assertThat(rs.getString(8)).isEqualTo("detail of r3");
                assertThat(rs.getObject(9, OffsetDateTime.class).toInstant())
                        .isEqualTo(T0.plusSeconds(40).toInstant());
                assertThat(rs.next()).isFalse();
            }
        }
    }

    private static void run(Connection c, String id, String step, int startSecond, String state, int finishSecond)
            throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO check_run (id, lab_id, learner_id, lesson, step_id,"
                + " started_at, state, detail, finished_at) VALUES (?, 'lab-1', 'ann', 'tbf-basics', ?, ?, ?, ?, ?)")) {
            s.setString(1, id);
            s.setString(2, step);
            s.setObject(3, T0.plusSeconds(startSecond));
            s.setString(4, state);
            s.setString(5, "detail of " + id);
            s.setObject(6, finishSecond < 0 ? null : T0.plusSeconds(finishSecond));
            s.executeUpdate();
        }
    }

    /** The app's migrations on one database (in its own schema when one is named), up to a version. */
    private static Flyway flyway(String url, String user, String password, String schema, String target) {
        var config = Flyway.configure()
                .dataSource(url, user, password)
                .locations("classpath:db/migration")
                .target(target);
        return (schema == null ? config : config.schemas(schema)).load();
    }
}
