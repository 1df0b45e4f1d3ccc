package dev.tclab.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.grading.CheckResult;
import dev.tclab.grading.CheckRun;
import dev.tclab.grading.CheckRunLog;
import dev.tclab.grading.CheckRunView;
import dev.tclab.grading.CheckRunView.ResultView;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Check runs and their results in the database, so {@code GET .../checks/{run}} answers after a restart. */
@ApplicationScoped
public class JdbcCheckRunLog implements CheckRunLog {

    /** Raw output kept per measurement, in characters: enough to see what the lab printed, bounded per row. */
    static final int RAW_CHARS_MAX = 4096;
    private static final int DETAIL_CHARS_MAX = 2000;
    static final String INTERRUPTED_DETAIL = "The server stopped while this check ran; press Check again.";

    private final Jdbc jdbc;
    private final ObjectMapper json;

    public JdbcCheckRunLog(Jdbc jdbc, ObjectMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    @Override
    public void started(CheckRun run) {
        jdbc.run("start the check", c -> {
            jdbc.ensureLearner(c, run.owner());
            try (PreparedStatement s = c.prepareStatement("INSERT INTO check_run"
                    + " (id, lab_id, learner_id, lesson, step_id, started_at, state, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
                s.setString(1, run.id());
                s.setString(2, run.labId());
                s.setString(3, run.owner());
                s.setString(4, run.lesson());
                s.setString(5, run.stepId());
                s.setObject(6, run.startedAt().atOffset(ZoneOffset.UTC));
                s.setString(7, state(run));
                s.setString(8, bounded(run.detail(), DETAIL_CHARS_MAX));
                return s.executeUpdate();
            }
        });
    }

    @Override
    public void resultAdded(CheckRun run, int position, CheckResult result) {
        ResultView full = ResultView.of(result);
        ResultView summary = new ResultView(full.check(), full.title(), full.status(), full.message(), full.hint(),
                full.attempts(), full.millis(), full.assertions(), full.errors(), boundedValues(full.raw()));
        String summaryJson = write(summary);
        String rawJson = write(boundedValues(result.raw()));
        jdbc.run("save the check's result", c -> {
            try (PreparedStatement s = c.prepareStatement("INSERT INTO check_result"
                    + " (run_id, position, check_id, status, summary, raw_output) VALUES (?, ?, ?, ?, ?, ?)")) {
                s.setString(1, run.id());
                s.setInt(2, position);
                s.setString(3, result.checkId());
                s.setString(4, summary.status());
                s.setString(5, summaryJson);
                s.setString(6, rawJson);
                return s.executeUpdate();
            }
        });
    }

    @Override
    public void finished(CheckRun run) {
        jdbc.run("save the check's outcome", c -> {
            try (PreparedStatement s = c.prepareStatement(
                    "UPDATE check_run SET state = ?, detail = ?, finished_at = ? WHERE id = ?")) {
                s.setString(1, state(run));
                s.setString(2, bounded(run.detail(), DETAIL_CHARS_MAX));
                s.setObject(3, Jdbc.now());
                s.setString(4, run.id());
                return s.executeUpdate();
            }
        });
    }

    @Override
    public Optional<CheckRunView> find(String labId, String runId, String owner) {
        return jdbc.run("read the check run", c -> {
            try (PreparedStatement s = c.prepareStatement("SELECT step_id, state, detail, finished_at FROM check_run"
                    + " WHERE id = ? AND lab_id = ? AND learner_id = ?")) {
                s.setString(1, runId);
                s.setString(2, labId);
                s.setString(3, owner);
                try (ResultSet rs = s.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.empty();
                    }
                    boolean finished = rs.getObject(4) != null;
                    return Optional.of(new CheckRunView(runId, rs.getString(1),
                            finished ? rs.getString(2) : CheckRunView.INTERRUPTED,
                            finished ? rs.getString(3) : INTERRUPTED_DETAIL, true, results(c, runId)));
                }
            }
        });
    }

    @Override
    public Map<String, CheckRunView> lastFinishedByStep(String labId, String owner) {
        return jdbc.run("read the last check of each step", c -> {
            // One row per step: its newest finished run (check_run_by_lab_step keeps this to the lab's own rows).
            try (PreparedStatement s = c.prepareStatement("SELECT r.id, r.step_id, r.state, r.detail FROM check_run r"
                    + " WHERE r.lab_id = ? AND r.learner_id = ? AND r.finished_at IS NOT NULL AND r.started_at ="
                    + " (SELECT MAX(n.started_at) FROM check_run n WHERE n.lab_id = r.lab_id AND n.learner_id = r.learner_id"
                    + " AND n.step_id = r.step_id AND n.finished_at IS NOT NULL)")) {
                s.setString(1, labId);
                s.setString(2, owner);
                Map<String, CheckRunView> last = new TreeMap<>();
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        String runId = rs.getString(1);
                        last.put(rs.getString(2), new CheckRunView(runId, rs.getString(2), rs.getString(3),
                                rs.getString(4), true, results(c, runId)));
                    }
                }
                return last;
            }
        });
    }

    private List<ResultView> results(Connection c, String runId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "SELECT summary FROM check_result WHERE run_id = ? ORDER BY position")) {
            s.setString(1, runId);
            List<ResultView> results = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    results.add(read(rs.getString(1)));
                }
            }
            return List.copyOf(results);
        }
    }

    private static String state(CheckRun run) {
        return run.state().name().toLowerCase(Locale.ROOT);
    }

    static Map<String, String> boundedValues(Map<String, String> raw) {
        Map<String, String> bounded = new TreeMap<>();
        raw.forEach((name, text) -> bounded.put(name, bounded(text, RAW_CHARS_MAX)));
        return bounded;
    }

    static String bounded(String text, int max) {
        if (text == null || text.length() <= max) {
            return text == null ? "" : text;
        }
        String note = "\n[... the rest, " + text.length() + " characters in all, was not kept]";
        return text.substring(0, max - note.length()) + note;
    }

    private String write(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a check result is plain records and maps: " + e.getMessage(), e);
        }
    }

    private ResultView read(String text) throws SQLException {
        try {
            return json.readValue(text, new TypeReference<ResultView>() { });
        } catch (JsonProcessingException e) {
            throw new SQLException("a kept check result is not readable JSON: " + e.getOriginalMessage(), e);
        }
    }
}
