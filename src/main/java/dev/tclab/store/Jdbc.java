package dev.tclab.store;

import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.InstantSource;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Runs the stores' statements on pooled connections in auto-commit: every write is one statement (or a few that
 * stand alone), so a write that returned is stored, and one that threw was not acknowledged. Any SQL failure becomes
 * a {@link StoreUnavailableException} saying what was not done.
 */
@ApplicationScoped
public class Jdbc {

    /** SQLSTATE of a unique or primary key violation, the same on H2 and PostgreSQL. */
    static final String UNIQUE_VIOLATION = "23505";
    /** Learners known to have a row; bounded, since it only saves a statement. */
    private static final int KNOWN_LEARNERS_MAX = 100_000;

    /** Work on one connection. */
    @FunctionalInterface
    public interface Work<T> {
        T apply(Connection connection) throws SQLException;
    }

    private final Database database;
    private final InstantSource clock;
    private final Set<String> knownLearners = ConcurrentHashMap.newKeySet();

    public Jdbc(Database database, InstantSource clock) {
        this.database = database;
        this.clock = clock;
    }

    /**
     * Runs {@code work} on a connection.
     *
     * @param what what the work does, for the refusal ("save your answer")
     */
    public <T> T run(String what, Work<T> work) {
        try (Connection c = database.connection()) {
            return work.apply(c);
        } catch (SQLException e) {
            throw new StoreUnavailableException(
                    "The database did not answer, so tclab could not " + what + " ("
                            + Database.firstLine(e.getMessage()) + "). Try again in a moment.",
                    e);
        }
    }

    /** Makes sure the learner has a row, which their progress refers to. Safe when two requests race. */
    void ensureLearner(Connection c, String learner) throws SQLException {
        if (knownLearners.contains(learner)) {
            return;
        }
        try (PreparedStatement s = c.prepareStatement(
                "INSERT INTO learner (id, created_at) SELECT ?, ? WHERE NOT EXISTS (SELECT 1 FROM learner WHERE id = ?)")) {
            s.setString(1, learner);
            s.setObject(2, now());
            s.setString(3, learner);
            s.executeUpdate();
        } catch (SQLException e) {
            if (!UNIQUE_VIOLATION.equals(e.getSQLState())) {
                throw e;
            }
        }
        if (knownLearners.size() >= KNOWN_LEARNERS_MAX) {
            knownLearners.clear();
        }
        knownLearners.add(learner);
    }

    /** The time a row records, from the app's clock. */
    OffsetDateTime now() {
        return clock.instant().atOffset(ZoneOffset.UTC);
    }
}
