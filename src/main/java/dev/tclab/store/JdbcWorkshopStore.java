package dev.tclab.store;

import dev.tclab.workshop.Broadcast;
import dev.tclab.workshop.HostAction;
import dev.tclab.workshop.PersonalMessage;
import dev.tclab.workshop.Seat;
import dev.tclab.workshop.WorkshopEvent;
import dev.tclab.workshop.WorkshopStore;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/** Workshop events, seats, broadcasts, messages to one learner and host actions in the database (V20, V81). */
@ApplicationScoped
public class JdbcWorkshopStore implements WorkshopStore {

    private static final String EVENT_COLUMNS =
            "id, host_name, title, lessons, join_code, opens_at, closes_at, seat_cap,"
                    + " idle_timeout_seconds, lifetime_seconds, created_at, closed_at, pooled_labs";

    private final Jdbc jdbc;

    public JdbcWorkshopStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public boolean create(WorkshopEvent e) {
        return jdbc.run("save the event", c -> {
            try (PreparedStatement s = c.prepareStatement("INSERT INTO workshop_event (" + EVENT_COLUMNS
                    + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                s.setString(1, e.id());
                s.setString(2, e.host());
                s.setString(3, e.title());
                s.setString(4, String.join(",", e.lessons()));
                s.setString(5, e.joinCode());
                s.setObject(6, e.opensAt().map(JdbcWorkshopStore::utc).orElse(null));
                s.setObject(7, e.closesAt().map(JdbcWorkshopStore::utc).orElse(null));
                s.setInt(8, e.seatCap());
                s.setLong(9, e.idleTimeout().toSeconds());
                s.setLong(10, e.lifetime().toSeconds());
                s.setObject(11, utc(e.createdAt()));
                s.setObject(12, e.closedAt().map(JdbcWorkshopStore::utc).orElse(null));
                s.setInt(13, e.pooledLabs());
                s.executeUpdate();
                return true;
            } catch (SQLException ex) {
                if (Jdbc.UNIQUE_VIOLATION.equals(ex.getSQLState())) {
                    return false;
                }
                throw ex;
            }
        });
    }

    @Override
    public Optional<WorkshopEvent> find(String id) {
        return jdbc.run("read the event", c -> first(c, "WHERE id = ?", id));
    }

    @Override
    public Optional<WorkshopEvent> findByCode(String joinCode) {
        return jdbc.run("read the event", c -> first(c, "WHERE join_code = ?", joinCode));
    }

    @Override
    public List<WorkshopEvent> events(String host) {
        return jdbc.run("list the events", c -> {
            String where = host == null ? "" : "WHERE host_name = ? ";
            try (PreparedStatement s = c.prepareStatement(
                    "SELECT " + EVENT_COLUMNS + " FROM workshop_event " + where + "ORDER BY created_at DESC, id")) {
                if (host != null) {
                    s.setString(1, host);
                }
                return events(s);
            }
        });
    }

    @Override
    public void update(WorkshopEvent e) {
        jdbc.run("change the event", c -> {
            try (PreparedStatement s =
                    c.prepareStatement("UPDATE workshop_event SET title = ?, lessons = ?, opens_at = ?,"
                            + " closes_at = ?, seat_cap = ?, idle_timeout_seconds = ?, lifetime_seconds = ?, closed_at = ?,"
                            + " pooled_labs = ? WHERE id = ?")) {
                s.setString(1, e.title());
                s.setString(2, String.join(",", e.lessons()));
                s.setObject(3, e.opensAt().map(JdbcWorkshopStore::utc).orElse(null));
                s.setObject(4, e.closesAt().map(JdbcWorkshopStore::utc).orElse(null));
                s.setInt(5, e.seatCap());
                s.setLong(6, e.idleTimeout().toSeconds());
                s.setLong(7, e.lifetime().toSeconds());
                s.setObject(8, e.closedAt().map(JdbcWorkshopStore::utc).orElse(null));
                s.setInt(9, e.pooledLabs());
                s.setString(10, e.id());
                return s.executeUpdate();
            }
        });
    }

    @Override
    public void close(String id, Instant at) {
        jdbc.run("close the event", c -> {
            try (PreparedStatement s =
                    c.prepareStatement("UPDATE workshop_event SET closed_at = ? WHERE id = ? AND closed_at IS NULL")) {
                s.setObject(1, utc(at));
                s.setString(2, id);
                return s.executeUpdate();
            }
        });
    }

    @Override
    public JoinOutcome join(String eventId, String learnerId, String displayName, int seatCap, Instant at) {
        return jdbc.run("seat you in the event", c -> {
            c.setAutoCommit(false);
            try {
                JoinOutcome outcome = joinLocked(c, eventId, learnerId, displayName, seatCap, at);
                c.commit();
                return outcome;
            } catch (SQLException e) {
                c.rollback();
                if (Jdbc.UNIQUE_VIOLATION.equals(e.getSQLState())) {
                    return JoinOutcome.NAME_TAKEN;
                }
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        });
    }

    /** Runs with the event row locked, so two joins for the last seat cannot both take it. */
    private static JoinOutcome joinLocked(
            Connection c, String eventId, String learnerId, String displayName, int seatCap, Instant at)
            throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT id FROM workshop_event WHERE id = ? FOR UPDATE")) {
            s.setString(1, eventId);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("no event " + eventId);
                }
            }
        }
        try (PreparedStatement s =
                c.prepareStatement("SELECT 1 FROM event_seat WHERE event_id = ? AND learner_id = ?")) {
            s.setString(1, eventId);
            s.setString(2, learnerId);
            try (ResultSet rs = s.executeQuery()) {
                if (rs.next()) {
                    return JoinOutcome.ALREADY_SEATED;
                }
            }
        }
        try (PreparedStatement s = c.prepareStatement(
                "SELECT COUNT(*), SUM(CASE WHEN LOWER(display_name) = LOWER(?) THEN 1 ELSE 0 END) FROM event_seat WHERE event_id = ?")) {
            s.setString(1, displayName);
            s.setString(2, eventId);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                if (rs.getInt(2) > 0) {
                    return JoinOutcome.NAME_TAKEN;
                }
                if (rs.getInt(1) >= seatCap) {
                    return JoinOutcome.FULL;
                }
            }
        }
        try (PreparedStatement s = c.prepareStatement(
                "INSERT INTO event_seat (event_id, learner_id, display_name, joined_at) VALUES (?, ?, ?, ?)")) {
            s.setString(1, eventId);
            s.setString(2, learnerId);
            s.setString(3, displayName);
            s.setObject(4, utc(at));
            s.executeUpdate();
        }
        return JoinOutcome.JOINED;
    }

    @Override
    public List<Seat> seats(String eventId) {
        return jdbc.run("list the event's learners", c -> {
            try (PreparedStatement s = c.prepareStatement("SELECT event_id, learner_id, display_name, joined_at"
                    + " FROM event_seat WHERE event_id = ? ORDER BY joined_at, display_name")) {
                s.setString(1, eventId);
                return seats(s);
            }
        });
    }

    @Override
    public Optional<Seat> latestSeat(String learnerId) {
        return jdbc.run("read your event", c -> {
            try (PreparedStatement s = c.prepareStatement("SELECT event_id, learner_id, display_name, joined_at"
                    + " FROM event_seat WHERE learner_id = ? ORDER BY joined_at DESC")) {
                s.setString(1, learnerId);
                s.setMaxRows(1);
                return seats(s).stream().findFirst();
            }
        });
    }

    @Override
    public void broadcast(String eventId, String text, Instant at) {
        jdbc.run("send the message", c -> {
            try (PreparedStatement s =
                    c.prepareStatement("INSERT INTO event_message (event_id, text, sent_at) VALUES (?, ?, ?)")) {
                s.setString(1, eventId);
                s.setString(2, text);
                s.setObject(3, utc(at));
                return s.executeUpdate();
            }
        });
    }

    @Override
    public List<Broadcast> broadcasts(String eventId, int limit) {
        return jdbc.run("read the event's messages", c -> {
            try (PreparedStatement s = c.prepareStatement(
                    "SELECT id, text, sent_at FROM event_message WHERE event_id = ? ORDER BY id DESC")) {
                s.setString(1, eventId);
                s.setMaxRows(limit);
                List<Broadcast> latest = new ArrayList<>();
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        latest.add(new Broadcast(rs.getLong(1), rs.getString(2), instant(rs, 3)));
                    }
                }
                Collections.reverse(latest);
                return latest;
            }
        });
    }

    @Override
    public void message(String eventId, String learnerId, String text, Instant at) {
        jdbc.run("send the message", c -> {
            try (PreparedStatement s = c.prepareStatement(
                    "INSERT INTO learner_message (event_id, learner_id, text, sent_at) VALUES (?, ?, ?, ?)")) {
                s.setString(1, eventId);
                s.setString(2, learnerId);
                s.setString(3, text);
                s.setObject(4, utc(at));
                return s.executeUpdate();
            }
        });
    }

    @Override
    public List<PersonalMessage> unread(String eventId, String learnerId, int limit) {
        return jdbc.run("read your host's messages", c -> {
            try (PreparedStatement s = c.prepareStatement("SELECT id, text, sent_at FROM learner_message"
                    + " WHERE learner_id = ? AND event_id = ? AND read_at IS NULL ORDER BY id DESC")) {
                s.setString(1, learnerId);
                s.setString(2, eventId);
                s.setMaxRows(limit);
                List<PersonalMessage> latest = new ArrayList<>();
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        latest.add(new PersonalMessage(rs.getLong(1), rs.getString(2), instant(rs, 3)));
                    }
                }
                Collections.reverse(latest);
                return latest;
            }
        });
    }

    @Override
    public boolean markRead(String eventId, String learnerId, long messageId, Instant at) {
        return jdbc.run("mark the message read", c -> {
            try (PreparedStatement s = c.prepareStatement("UPDATE learner_message SET read_at = ?"
                    + " WHERE id = ? AND learner_id = ? AND event_id = ? AND read_at IS NULL")) {
                s.setObject(1, utc(at));
                s.setLong(2, messageId);
                s.setString(3, learnerId);
                s.setString(4, eventId);
                return s.executeUpdate() == 1;
            }
        });
    }

    @Override
    public void recordAction(String eventId, HostAction a) {
        jdbc.run("record the host action", c -> {
            try (PreparedStatement s = c.prepareStatement("INSERT INTO host_action"
                    + " (event_id, host_name, learner_id, action, detail, done_at) VALUES (?, ?, ?, ?, ?, ?)")) {
                s.setString(1, eventId);
                s.setString(2, a.host());
                s.setString(3, a.learnerId());
                s.setString(4, a.action());
                s.setString(5, a.detail().length() > 1000 ? a.detail().substring(0, 1000) : a.detail());
                s.setObject(6, utc(a.doneAt()));
                return s.executeUpdate();
            }
        });
    }

    @Override
    public List<HostAction> actions(String eventId, int limit) {
        return jdbc.run("read the event's host actions", c -> {
            try (PreparedStatement s = c.prepareStatement("SELECT host_name, learner_id, action, detail, done_at"
                    + " FROM host_action WHERE event_id = ? ORDER BY id DESC")) {
                s.setString(1, eventId);
                s.setMaxRows(limit);
                List<HostAction> actions = new ArrayList<>();
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        actions.add(new HostAction(
                                rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), instant(rs, 5)));
                    }
                }
                return actions;
            }
        });
    }

    private static Optional<WorkshopEvent> first(Connection c, String where, String value) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT " + EVENT_COLUMNS + " FROM workshop_event " + where)) {
            s.setString(1, value);
            return events(s).stream().findFirst();
        }
    }

    private static List<WorkshopEvent> events(PreparedStatement s) throws SQLException {
        List<WorkshopEvent> events = new ArrayList<>();
        try (ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                events.add(new WorkshopEvent(
                        rs.getString(1),
                        rs.getString(2),
                        rs.getString(3),
                        Arrays.asList(rs.getString(4).split(",")),
                        rs.getString(5),
                        Optional.ofNullable(instant(rs, 6)),
                        Optional.ofNullable(instant(rs, 7)),
                        rs.getInt(8),
                        Duration.ofSeconds(rs.getLong(9)),
                        Duration.ofSeconds(rs.getLong(10)),
                        instant(rs, 11),
                        Optional.ofNullable(instant(rs, 12)),
                        rs.getInt(13)));
            }
        }
        return events;
    }

    private static List<Seat> seats(PreparedStatement s) throws SQLException {
        List<Seat> seats = new ArrayList<>();
        try (ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                seats.add(new Seat(rs.getString(1), rs.getString(2), rs.getString(3), instant(rs, 4)));
            }
        }
        return seats;
    }

    private static OffsetDateTime utc(Instant at) {
        return at.atOffset(ZoneOffset.UTC);
    }

    private static Instant instant(ResultSet rs, int column) throws SQLException {
        OffsetDateTime at = rs.getObject(column, OffsetDateTime.class);
        return at == null ? null : at.toInstant();
    }
}
