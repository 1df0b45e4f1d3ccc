package dev.tclab.store;

import dev.tclab.workshop.ProgressReader;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The class's progress from the step_run_tally and quiz_attempt tables. Learners are queried in batches of at most
 * {@value #BATCH} ids, so a class of any size makes a bounded IN list.
 */
@ApplicationScoped
public class JdbcProgressReader implements ProgressReader {

    private static final int BATCH = 200;

    private final Jdbc jdbc;

    public JdbcProgressReader(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public List<StepRuns> steps(Collection<String> learners, Collection<String> lessons) {
        // The tally, not the runs: pruning deletes old runs, never what a step's attempts and first pass were.
        return perItem(
                "read the class's check runs",
                "SELECT learner_id, lesson, step_id, attempts, first_passed_at,"
                        + " first_run_at, last_state, last_detail, last_at, last_run_id, last_lab_id FROM step_run_tally"
                        + " WHERE learner_id IN (%s)",
                learners,
                lessons,
                (rs, before) -> new StepRuns(
                        rs.getString(1),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getInt(4),
                        instant(rs, 5),
                        instant(rs, 6),
                        rs.getString(7),
                        rs.getString(8),
                        instant(rs, 9),
                        rs.getString(10),
                        rs.getString(11)));
    }

    @Override
    public List<QuizAnswers> quizzes(Collection<String> learners, Collection<String> lessons) {
        return perItem(
                "read the class's quiz answers",
                "SELECT learner_id, lesson, quiz_id, correct, answered_at"
                        + " FROM quiz_attempt WHERE learner_id IN (%s) ORDER BY id",
                learners,
                lessons,
                (rs, before) -> {
                    boolean correct = rs.getBoolean(4);
                    Instant at = instant(rs, 5);
                    Instant firstCorrect = before == null ? null : before.firstCorrectAt();
                    if (firstCorrect == null && correct) {
                        firstCorrect = at;
                    }
                    return new QuizAnswers(
                            rs.getString(1),
                            rs.getString(2),
                            rs.getString(3),
                            (before == null ? 0 : before.attempts()) + 1,
                            firstCorrect,
                            correct,
                            at);
                });
    }

    /** Folds a row into the value kept for its learner, lesson and item; {@code before} is null for the first row. */
    @FunctionalInterface
    private interface Fold<T> {
        T next(ResultSet row, T before) throws SQLException;
    }

    /**
     * One value per learner, lesson and item (step or quiz), folded from the rows of {@code select}: its first three
     * columns are learner_id, lesson and the item's id, and its {@code %s} is the learners' IN list, asked in batches.
     */
    private <T> List<T> perItem(
            String what, String select, Collection<String> learners, Collection<String> lessons, Fold<T> fold) {
        List<T> all = new ArrayList<>();
        for (List<String> batch : batches(learners)) {
            all.addAll(jdbc.run(what, c -> {
                try (PreparedStatement s = c.prepareStatement(String.format(select, marks(batch.size())))) {
                    for (int i = 0; i < batch.size(); i++) {
                        s.setString(i + 1, batch.get(i));
                    }
                    Map<String, T> byItem = new LinkedHashMap<>();
                    try (ResultSet rs = s.executeQuery()) {
                        while (rs.next()) {
                            if (lessons.contains(rs.getString(2))) {
                                String key = rs.getString(1) + "\n" + rs.getString(2) + "\n" + rs.getString(3);
                                byItem.put(key, fold.next(rs, byItem.get(key)));
                            }
                        }
                    }
                    return byItem.values();
                }
            }));
        }
        return all;
    }

    @Override
    public List<CheckOutput> results(String runId) {
        return jdbc.run("read the check results", c -> {
            try (PreparedStatement s =
                    c.prepareStatement("SELECT check_id, status, summary, raw_output FROM check_result"
                            + " WHERE run_id = ? ORDER BY position")) {
                s.setString(1, runId);
                List<CheckOutput> outputs = new ArrayList<>();
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        outputs.add(
                                new CheckOutput(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4)));
                    }
                }
                return outputs;
            }
        });
    }

    private static List<List<String>> batches(Collection<String> learners) {
        List<String> ids = List.copyOf(learners);
        List<List<String>> batches = new ArrayList<>();
        for (int i = 0; i < ids.size(); i += BATCH) {
            batches.add(ids.subList(i, Math.min(ids.size(), i + BATCH)));
        }
        return batches;
    }

    private static String marks(int n) {
        return String.join(", ", java.util.Collections.nCopies(n, "?"));
    }

    private static Instant instant(ResultSet rs, int column) throws SQLException {
        OffsetDateTime at = rs.getObject(column, OffsetDateTime.class);
        return at == null ? null : at.toInstant();
    }
}
