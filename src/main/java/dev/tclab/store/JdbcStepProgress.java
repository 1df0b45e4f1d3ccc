package dev.tclab.store;

import dev.tclab.grading.StepProgress;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/** The latest outcome of each check per learner and lesson, in the database. */
@ApplicationScoped
public class JdbcStepProgress implements StepProgress {

    private final Jdbc jdbc;

    public JdbcStepProgress(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public void record(String learner, String lesson, String checkId, boolean passed) {
        jdbc.run("save your step progress", c -> {
            jdbc.ensureLearner(c, learner);
            // Update, else insert; a racing insert of the same row makes the update right again.
            if (update(c, learner, lesson, checkId, passed) == 0) {
                try {
                    insert(c, learner, lesson, checkId, passed);
                } catch (SQLException e) {
                    if (!Jdbc.UNIQUE_VIOLATION.equals(e.getSQLState())) {
                        throw e;
                    }
                    update(c, learner, lesson, checkId, passed);
                }
            }
            return null;
        });
    }

    @Override
    public Map<String, Boolean> checks(String learner, String lesson) {
        return jdbc.run("read your step progress", c -> {
            try (PreparedStatement s =
                    c.prepareStatement("SELECT check_id, passed FROM step_check WHERE learner_id = ? AND lesson = ?")) {
                s.setString(1, learner);
                s.setString(2, lesson);
                Map<String, Boolean> checks = new HashMap<>();
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        checks.put(rs.getString(1), rs.getBoolean(2));
                    }
                }
                return Map.copyOf(checks);
            }
        });
    }

    private int update(Connection c, String learner, String lesson, String checkId, boolean passed)
            throws SQLException {
        try (PreparedStatement s = c.prepareStatement("UPDATE step_check SET passed = ?, updated_at = ?"
                + " WHERE learner_id = ? AND lesson = ? AND check_id = ?")) {
            s.setBoolean(1, passed);
            s.setObject(2, jdbc.now());
            s.setString(3, learner);
            s.setString(4, lesson);
            s.setString(5, checkId);
            return s.executeUpdate();
        }
    }

    private void insert(Connection c, String learner, String lesson, String checkId, boolean passed)
            throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO step_check"
                + " (learner_id, lesson, check_id, passed, updated_at) VALUES (?, ?, ?, ?, ?)")) {
            s.setString(1, learner);
            s.setString(2, lesson);
            s.setString(3, checkId);
            s.setBoolean(4, passed);
            s.setObject(5, jdbc.now());
            s.executeUpdate();
        }
    }
}
