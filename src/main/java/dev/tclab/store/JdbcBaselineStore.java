package dev.tclab.store;

import dev.tclab.grading.run.BaselineStore;
import dev.tclab.grading.spec.Measure;
import dev.tclab.grading.spec.Unit;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.Map;

/** Baselines in the database, so a lab adopted after a restart still compares with what it measured before. */
@ApplicationScoped
public class JdbcBaselineStore implements BaselineStore {

    private final Jdbc jdbc;

    public JdbcBaselineStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public void record(String labId, String name, Measure value) {
        jdbc.run("save the lab's baseline " + name, c -> {
            try (PreparedStatement update = c.prepareStatement(
                    "UPDATE baseline SET measured = ?, unit = ?, recorded_at = ? WHERE lab_id = ? AND name = ?")) {
                update.setDouble(1, value.value());
                update.setString(2, value.unit().name());
                update.setObject(3, jdbc.now());
                update.setString(4, labId);
                update.setString(5, name);
                if (update.executeUpdate() > 0) {
                    return null;
                }
            }
            // One check run at a time per lab records its baselines, so no other insert can race this one.
            try (PreparedStatement insert = c.prepareStatement(
                    "INSERT INTO baseline (lab_id, name, measured, unit, recorded_at) VALUES (?, ?, ?, ?, ?)")) {
                insert.setString(1, labId);
                insert.setString(2, name);
                insert.setDouble(3, value.value());
                insert.setString(4, value.unit().name());
                insert.setObject(5, jdbc.now());
                insert.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public Map<String, Measure> all(String labId) {
        return jdbc.run("read the lab's baselines", c -> {
            try (PreparedStatement s =
                    c.prepareStatement("SELECT name, measured, unit FROM baseline WHERE lab_id = ?")) {
                s.setString(1, labId);
                Map<String, Measure> values = new HashMap<>();
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        values.put(rs.getString(1), new Measure(rs.getDouble(2), Unit.valueOf(rs.getString(3))));
                    }
                }
                return Map.copyOf(values);
            }
        });
    }

    @Override
    public void forget(String labId) {
        jdbc.run("forget the lab's baselines", c -> {
            try (PreparedStatement s = c.prepareStatement("DELETE FROM baseline WHERE lab_id = ?")) {
                s.setString(1, labId);
                return s.executeUpdate();
            }
        });
    }
}
