package dev.tclab.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.grading.CheckRun;
import dev.tclab.grading.CheckRunLog;
import dev.tclab.grading.CheckRunView;
import dev.tclab.grading.CheckRunView.ResultView;
import dev.tclab.grading.run.CheckResult;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Check runs and their results in the database, so {@code GET .../checks/{run}} answers after a restart, and each
 * learner's step tally (attempts, first pass, latest run: table step_run_tally), kept with the runs so that pruning
 * old runs changes no progress.
 */
@ApplicationScoped
public class JdbcCheckRunLog implements CheckRunLog {

    /** Raw output kept per measurement, in characters: enough to see what the lab printed, bounded per row. */
    static final int RAW_CHARS_MAX = 4096;

    private static final int DETAIL_CHARS_MAX = 2000;
    /** Runs deleted by one statement (their results go with them): short enough to hold no lock for long. */
    static final int DELETE_BATCH = 100;
    /** Runs of a step past its newest {@code ?}, excluding the step's latest (the tally's), at most {@code ?}. */
    private static final String SURPLUS_RUNS = "SELECT id FROM (SELECT r.id, ROW_NUMBER() OVER (PARTITION BY"
            + " r.learner_id, r.lesson, r.step_id ORDER BY r.started_at DESC, r.id DESC) AS newest FROM check_run r) ranked"
            + " WHERE newest > ? AND NOT EXISTS (SELECT 1 FROM step_run_tally t WHERE t.last_run_id = ranked.id)"
            + " FETCH FIRST ? ROWS ONLY";
    /** Runs started before {@code ?}, excluding each step's latest (the tally's), at most {@code ?}. */
    private static final String OLD_RUNS = "SELECT r.id FROM check_run r WHERE r.started_at < ?"
            + " AND NOT EXISTS (SELECT 1 FROM step_run_tally t WHERE t.last_run_id = r.id) FETCH FIRST ? ROWS ONLY";

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
            // The run and its step's tally change together: a run that was kept is counted, and only such a run.
            // Two first runs of one step may race to make its tally; the loser counts itself on the winner's.
            for (int attempt = 1; ; attempt++) {
                c.setAutoCommit(false);
                try {
                    insertRun(c, run);
                    if (countStart(c, run) == 0) {
                        insertTally(c, run);
                    }
                    c.commit();
                    return null;
                } catch (SQLException e) {
                    c.rollback();
                    if (attempt > 1 || !Jdbc.UNIQUE_VIOLATION.equals(e.getSQLState())) {
                        throw e;
                    }
                } finally {
                    c.setAutoCommit(true);
                }
            }
        });
    }

    private void insertRun(Connection c, CheckRun run) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "INSERT INTO check_run"
                        + " (id, lab_id, learner_id, lesson, step_id, started_at, state, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
            s.setString(1, run.id());
            s.setString(2, run.labId());
            s.setString(3, run.owner());
            s.setString(4, run.lesson());
            s.setString(5, run.stepId());
            s.setObject(6, run.startedAt().atOffset(ZoneOffset.UTC));
            s.setString(7, state(run));
            s.setString(8, bounded(run.detail(), DETAIL_CHARS_MAX));
            s.executeUpdate();
        }
    }

    /** One more attempt at the run's step, which is now the step's latest run; 0 when the step has no tally yet. */
    private int countStart(Connection c, CheckRun run) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("UPDATE step_run_tally SET attempts = attempts + 1,"
                + " last_run_id = ?, last_lab_id = ?, last_state = ?, last_detail = ?, last_at = ?"
                + " WHERE learner_id = ? AND lesson = ? AND step_id = ?")) {
            s.setString(1, run.id());
            s.setString(2, run.labId());
            s.setString(3, state(run));
            s.setString(4, bounded(run.detail(), DETAIL_CHARS_MAX));
            s.setObject(5, run.startedAt().atOffset(ZoneOffset.UTC));
            s.setString(6, run.owner());
            s.setString(7, run.lesson());
            s.setString(8, run.stepId());
            return s.executeUpdate();
        }
    }

    private void insertTally(Connection c, CheckRun run) throws SQLException {
        try (PreparedStatement s =
                c.prepareStatement("INSERT INTO step_run_tally (learner_id, lesson, step_id, attempts,"
                        + " first_run_at, last_run_id, last_lab_id, last_state, last_detail, last_at)"
                        + " VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?)")) {
            s.setString(1, run.owner());
            s.setString(2, run.lesson());
            s.setString(3, run.stepId());
            s.setObject(4, run.startedAt().atOffset(ZoneOffset.UTC));
            s.setString(5, run.id());
            s.setString(6, run.labId());
            s.setString(7, state(run));
            s.setString(8, bounded(run.detail(), DETAIL_CHARS_MAX));
            s.setObject(9, run.startedAt().atOffset(ZoneOffset.UTC));
            s.executeUpdate();
        }
    }

    @Override
    public void resultAdded(CheckRun run, int position, CheckResult result) {
        ResultView full = ResultView.of(result);
        ResultView summary = new ResultView(
                full.check(),
                full.title(),
                full.status(),
                full.message(),
                full.hint(),
                full.attempts(),
                full.millis(),
                full.assertions(),
                full.errors(),
                boundedValues(full.raw()),
                full.flows());
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
            OffsetDateTime now = jdbc.now();
            c.setAutoCommit(false);
            try {
                try (PreparedStatement s = c.prepareStatement(
                        "UPDATE check_run SET state = ?, detail = ?, finished_at = ? WHERE id = ?")) {
                    s.setString(1, state(run));
                    s.setString(2, bounded(run.detail(), DETAIL_CHARS_MAX));
                    s.setObject(3, now);
                    s.setString(4, run.id());
                    s.executeUpdate();
                }
                // The tally shows this outcome while the run is its step's latest, and keeps the step's first pass.
                try (PreparedStatement s = c.prepareStatement("UPDATE step_run_tally SET"
                        + " first_passed_at = CASE WHEN ? AND first_passed_at IS NULL THEN ? ELSE first_passed_at END,"
                        + " last_state = CASE WHEN last_run_id = ? THEN ? ELSE last_state END,"
                        + " last_detail = CASE WHEN last_run_id = ? THEN ? ELSE last_detail END,"
                        + " last_at = CASE WHEN last_run_id = ? THEN ? ELSE last_at END"
                        + " WHERE learner_id = ? AND lesson = ? AND step_id = ?")) {
                    String detail = bounded(run.detail(), DETAIL_CHARS_MAX);
                    s.setBoolean(1, run.state() == CheckRun.State.PASSED);
                    s.setObject(2, now);
                    s.setString(3, run.id());
                    s.setString(4, state(run));
                    s.setString(5, run.id());
                    s.setString(6, detail);
                    s.setString(7, run.id());
                    s.setObject(8, now);
                    s.setString(9, run.owner());
                    s.setString(10, run.lesson());
                    s.setString(11, run.stepId());
                    s.executeUpdate();
                }
                c.commit();
                return null;
            } catch (SQLException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
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
                    return Optional.of(new CheckRunView(
                            runId,
                            rs.getString(1),
                            finished ? rs.getString(2) : CheckRunView.INTERRUPTED,
                            finished ? rs.getString(3) : INTERRUPTED_DETAIL,
                            true,
                            results(c, runId)));
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
                        last.put(
                                rs.getString(2),
                                new CheckRunView(
                                        runId,
                                        rs.getString(2),
                                        rs.getString(3),
                                        rs.getString(4),
                                        true,
                                        results(c, runId)));
                    }
                }
                return last;
            }
        });
    }

    @Override
    public int prune(int keepPerStep, Instant startedBefore, int maxRuns) {
        // Each rule selects a bounded list of ids once, then deletes them in short statements (each commits alone,
        // so no lock is held long); a step's latest run (its tally's) is never selected.
        int deleted = delete(select(SURPLUS_RUNS, s -> s.setInt(1, keepPerStep), maxRuns));
        if (deleted < maxRuns) {
            deleted += delete(
                    select(OLD_RUNS, s -> s.setObject(1, startedBefore.atOffset(ZoneOffset.UTC)), maxRuns - deleted));
        }
        return deleted;
    }

    /** Sets the rule's first parameter (the second is how many ids at most). */
    @FunctionalInterface
    private interface RuleParameter {
        void set(PreparedStatement statement) throws SQLException;
    }

    private List<String> select(String rule, RuleParameter parameter, int most) {
        return jdbc.run("find check runs to prune", c -> {
            try (PreparedStatement s = c.prepareStatement(rule)) {
                parameter.set(s);
                s.setInt(2, most);
                List<String> found = new ArrayList<>();
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        found.add(rs.getString(1));
                    }
                }
                return found;
            }
        });
    }

    private int delete(List<String> runIds) {
        int deleted = 0;
        for (int from = 0; from < runIds.size(); from += DELETE_BATCH) {
            List<String> batch = runIds.subList(from, Math.min(runIds.size(), from + DELETE_BATCH));
            deleted += jdbc.run("prune check runs", c -> {
                try (PreparedStatement s = c.prepareStatement("DELETE FROM check_run WHERE id IN ("
                        + String.join(", ", Collections.nCopies(batch.size(), "?")) + ")")) {
                    for (int i = 0; i < batch.size(); i++) {
                        s.setString(i + 1, batch.get(i));
                    }
                    return s.executeUpdate();
                }
            });
        }
        return deleted;
    }

    private List<ResultView> results(Connection c, String runId) throws SQLException {
        try (PreparedStatement s =
                c.prepareStatement("SELECT summary FROM check_result WHERE run_id = ? ORDER BY position")) {
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
            return json.readValue(text, new TypeReference<ResultView>() {});
        } catch (JsonProcessingException e) {
            throw new SQLException("a kept check result is not readable JSON: " + e.getOriginalMessage(), e);
        }
    }
}
