package dev.tclab.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.lab.LabPhase;
import dev.tclab.lab.LabRecord;
import dev.tclab.lab.LabRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The lab registry in table {@code lab} (migrations V10, V30, V50). */
@ApplicationScoped
public class JdbcLabRegistry implements LabRegistry {

    private static final TypeReference<Map<String, String>> PARAMETERS = new TypeReference<>() {};
    private static final int MAX_REASON = 1000;
    private static final int MAX_CLIENT = 100;
    private static final int OWNERS_PER_QUERY = 500;

    private final Database database;
    private final ObjectMapper json;
    private final GroupCommit<LabRecord> claims;

    public JdbcLabRegistry(Database database, ObjectMapper json) {
        this.database = database;
        this.json = json;
        this.claims = new GroupCommit<>(database::connection, this::claimRow, Comparator.comparing(LabRecord::id));
    }

    @Override
    public void save(LabRecord record) {
        try (Connection c = database.connection()) {
            if (update(c, record) == 0) {
                insertUnlessKept(c, record);
            }
        } catch (SQLException e) {
            throw new StoreUnavailableException(
                    "The lab could not be recorded (database " + database.describe() + ": "
                            + Database.firstLine(e.getMessage()) + "). Try again in a moment.",
                    e);
        }
    }

    private int update(Connection c, LabRecord r) throws SQLException {
        // The client is kept while the lab is live, for the start quota after a restart, and dropped once it ended.
        try (PreparedStatement s = c.prepareStatement("UPDATE lab SET phase = ?, ready_at = ?, last_activity = ?,"
                + " ended_at = ?, reason = ?, version = ?, client = ? WHERE id = ? AND version < ?")) {
            s.setString(1, r.phase().name());
            s.setObject(2, time(r.readyAt()));
            s.setObject(3, time(r.lastActivity()));
            s.setObject(4, time(r.endedAt()));
            s.setString(5, reason(r.reason()));
            s.setLong(6, r.version());
            s.setString(7, client(r));
            s.setString(8, r.id());
            s.setLong(9, r.version());
            return s.executeUpdate();
        }
    }

    /** Inserts a record not kept yet; a kept one (as new or newer) stays as it is. */
    private void insertUnlessKept(Connection c, LabRecord r) throws SQLException {
        try (PreparedStatement exists = c.prepareStatement("SELECT 1 FROM lab WHERE id = ?")) {
            exists.setString(1, r.id());
            try (ResultSet rs = exists.executeQuery()) {
                if (rs.next()) {
                    return;
                }
            }
        }
        try (PreparedStatement s = c.prepareStatement("INSERT INTO lab (id, owner, lesson, parameters, phase,"
                + " created_at, ready_at, last_activity, ended_at, reason, version, client)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            s.setString(1, r.id());
            s.setString(2, r.owner());
            s.setString(3, r.lesson());
            s.setString(4, parameters(r.parameters()));
            s.setString(5, r.phase().name());
            s.setObject(6, time(r.createdAt()));
            s.setObject(7, time(r.readyAt()));
            s.setObject(8, time(r.lastActivity()));
            s.setObject(9, time(r.endedAt()));
            s.setString(10, reason(r.reason()));
            s.setLong(11, r.version());
            s.setString(12, client(r));
            s.executeUpdate();
        } catch (SQLException e) {
            // 23xxx: a concurrent save of the same lab inserted it first; the newer one wins by its version.
            if (e.getSQLState() == null || !e.getSQLState().startsWith("23")) {
                throw e;
            }
            update(c, r);
        }
    }

    /** A class's hand-outs arrive together: their claims are committed together (see {@link GroupCommit}). */
    @Override
    public boolean claim(LabRecord r) {
        try {
            return claims.run(r);
        } catch (SQLException e) {
            throw new StoreUnavailableException(
                    "The lab could not be handed to you (database " + database.describe() + ": "
                            + Database.firstLine(e.getMessage()) + "). Try again in a moment.",
                    e);
        }
    }

    private boolean claimRow(Connection c, LabRecord r) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("UPDATE lab SET owner = ?, parameters = ?, created_at = ?,"
                + " ready_at = ?, last_activity = ?, version = ?, client = ? WHERE id = ? AND owner IS NULL"
                + " AND phase = ?")) {
            s.setString(1, r.owner());
            s.setString(2, parameters(r.parameters()));
            s.setObject(3, time(r.createdAt()));
            s.setObject(4, time(r.readyAt()));
            s.setObject(5, time(r.lastActivity()));
            s.setLong(6, r.version());
            s.setString(7, client(r));
            s.setString(8, r.id());
            s.setString(9, LabPhase.RUNNING.name());
            return s.executeUpdate() == 1;
        }
    }

    @Override
    public List<LabRecord> live() {
        return select("WHERE phase IN (?, ?)", LabPhase.STARTING.name(), LabPhase.RUNNING.name());
    }

    @Override
    public List<LabRecord> queued() {
        return select("WHERE phase = ? ORDER BY created_at, id", LabPhase.QUEUED.name());
    }

    @Override
    public boolean leaveQueue(LabRecord r) {
        try (Connection c = database.connection();
                PreparedStatement s =
                        c.prepareStatement("UPDATE lab SET phase = ?, version = ? WHERE id = ?" + " AND phase = ?")) {
            s.setString(1, r.phase().name());
            s.setLong(2, r.version());
            s.setString(3, r.id());
            s.setString(4, LabPhase.QUEUED.name());
            return s.executeUpdate() == 1;
        } catch (SQLException e) {
            throw new StoreUnavailableException(
                    "Your queued lab could not start (database " + database.describe() + ": "
                            + Database.firstLine(e.getMessage()) + "). Start it again in a moment.",
                    e);
        }
    }

    @Override
    public Optional<LabRecord> find(String labId) {
        return select("WHERE id = ?", labId).stream().findFirst();
    }

    @Override
    public List<LabRecord> liveOf(Collection<String> owners) {
        List<String> all = List.copyOf(new LinkedHashSet<>(owners));
        List<LabRecord> records = new ArrayList<>();
        // In chunks, so a large class never makes one statement with thousands of parameters.
        for (int from = 0; from < all.size(); from += OWNERS_PER_QUERY) {
            List<String> chunk = all.subList(from, Math.min(all.size(), from + OWNERS_PER_QUERY));
            List<String> values = new ArrayList<>(chunk);
            values.add(LabPhase.STARTING.name());
            values.add(LabPhase.RUNNING.name());
            String marks = String.join(", ", Collections.nCopies(chunk.size(), "?"));
            records.addAll(select("WHERE owner IN (" + marks + ") AND phase IN (?, ?)", values.toArray(String[]::new)));
        }
        return records;
    }

    @Override
    public void seen(String labId, Instant at) {
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement("UPDATE lab SET last_activity = ? WHERE id = ?"
                        + " AND (last_activity IS NULL OR last_activity < ?)")) {
            s.setObject(1, time(at));
            s.setString(2, labId);
            s.setObject(3, time(at));
            s.executeUpdate();
        } catch (SQLException e) {
            throw new StoreUnavailableException(
                    "The lab's last use could not be recorded (database " + database.describe() + ": "
                            + Database.firstLine(e.getMessage()) + ").",
                    e);
        }
    }

    private List<LabRecord> select(String where, String... values) {
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement("SELECT id, owner, lesson, parameters, phase, created_at,"
                        + " ready_at, last_activity, ended_at, reason, version, client FROM lab " + where)) {
            for (int i = 0; i < values.length; i++) {
                s.setString(i + 1, values[i]);
            }
            List<LabRecord> records = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    records.add(new LabRecord(
                            rs.getString(1),
                            rs.getString(2),
                            rs.getString(3),
                            parameters(rs.getString(4)),
                            LabPhase.valueOf(rs.getString(5)),
                            instant(rs, 6),
                            instant(rs, 7),
                            instant(rs, 8),
                            instant(rs, 9),
                            rs.getString(10),
                            rs.getLong(11),
                            rs.getString(12)));
                }
            }
            return records;
        } catch (SQLException e) {
            throw new StoreUnavailableException(
                    "The lab registry could not be read (database " + database.describe() + ": "
                            + Database.firstLine(e.getMessage()) + ").",
                    e);
        }
    }

    private String parameters(Map<String, String> values) {
        try {
            return json.writeValueAsString(values);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a map of strings is always JSON", e);
        }
    }

    private Map<String, String> parameters(String text) throws SQLException {
        try {
            return json.readValue(text, PARAMETERS);
        } catch (JsonProcessingException e) {
            throw new SQLException("lab parameters are not a JSON object of strings: " + e.getOriginalMessage(), e);
        }
    }

    /** The record's client while the lab is live; cut to the column's size (a forwarded header may say anything). */
    private static String client(LabRecord r) {
        String client = r.phase().live() ? r.client() : null;
        return client == null || client.length() <= MAX_CLIENT ? client : client.substring(0, MAX_CLIENT);
    }

    private static String reason(String reason) {
        return reason == null || reason.length() <= MAX_REASON ? reason : reason.substring(0, MAX_REASON - 1) + "…";
    }

    /** Microseconds, as both databases keep them (H2 would round nanoseconds, not cut them). */
    private static OffsetDateTime time(Instant instant) {
        return instant == null ? null : instant.truncatedTo(ChronoUnit.MICROS).atOffset(ZoneOffset.UTC);
    }

    private static Instant instant(ResultSet rs, int column) throws SQLException {
        OffsetDateTime time = rs.getObject(column, OffsetDateTime.class);
        return time == null ? null : time.toInstant();
    }
}
