package dev.tclab.store;

import dev.tclab.host.HostSessionStore;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** Open host sessions in the database (table host_session). */
@ApplicationScoped
public class JdbcHostSessionStore implements HostSessionStore {

    private final Jdbc jdbc;

    public JdbcHostSessionStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public void open(String sessionId, String host, Instant expires) {
        jdbc.run("keep the host's sign-in", c -> {
            try (PreparedStatement forget = c.prepareStatement("DELETE FROM host_session WHERE expires_at <= ?");
                    PreparedStatement s = c.prepareStatement(
                            "INSERT INTO host_session (id, host_name, expires_at) VALUES (?, ?, ?)")) {
                forget.setObject(1, jdbc.now());
                forget.executeUpdate();
                s.setString(1, sessionId);
                s.setString(2, host);
                s.setObject(3, OffsetDateTime.ofInstant(expires, ZoneOffset.UTC));
                s.executeUpdate();
                return null;
            }
        });
    }

    @Override
    public boolean isOpen(String sessionId, String host, Instant now) {
        return jdbc.run("check the host's sign-in", c -> {
            try (PreparedStatement s = c.prepareStatement(
                    "SELECT 1 FROM host_session WHERE id = ? AND host_name = ? AND expires_at > ?")) {
                s.setString(1, sessionId);
                s.setString(2, host);
                s.setObject(3, OffsetDateTime.ofInstant(now, ZoneOffset.UTC));
                try (ResultSet rs = s.executeQuery()) {
                    return rs.next();
                }
            }
        });
    }

    @Override
    public void end(String sessionId) {
        jdbc.run("end the host's sign-in", c -> {
            try (PreparedStatement s = c.prepareStatement("DELETE FROM host_session WHERE id = ?")) {
                s.setString(1, sessionId);
                s.executeUpdate();
                return null;
            }
        });
    }
}
