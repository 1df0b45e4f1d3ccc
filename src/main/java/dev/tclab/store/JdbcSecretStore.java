package dev.tclab.store;

import dev.tclab.learner.SecretStore;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.function.Supplier;

/** Secrets in the database: with H2 they live in the data directory, with PostgreSQL every replica shares them. */
@ApplicationScoped
public class JdbcSecretStore implements SecretStore {

    private final Jdbc jdbc;

    public JdbcSecretStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public String getOrCreate(String name, Supplier<String> fresh) {
        return jdbc.run("read the secret " + name, c -> {
            Optional<String> kept = read(c, name);
            if (kept.isPresent()) {
                return kept.get();
            }
            try (PreparedStatement s =
                    c.prepareStatement("INSERT INTO app_secret (name, secret, created_at) VALUES (?, ?, ?)")) {
                String secret = fresh.get();
                s.setString(1, name);
                s.setString(2, secret);
                s.setObject(3, jdbc.now());
                s.executeUpdate();
                return secret;
            } catch (SQLException e) {
                if (!Jdbc.UNIQUE_VIOLATION.equals(e.getSQLState())) {
                    throw e;
                }
                // Another replica made it first: use theirs.
                return read(c, name).orElseThrow(() -> e);
            }
        });
    }

    private static Optional<String> read(Connection c, String name) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT secret FROM app_secret WHERE name = ?")) {
            s.setString(1, name);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
        }
    }
}
