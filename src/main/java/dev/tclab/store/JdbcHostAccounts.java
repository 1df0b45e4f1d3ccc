package dev.tclab.store;

import dev.tclab.host.HostAccount;
import dev.tclab.host.HostAccounts;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/** Host accounts in the database (table host_account). */
@ApplicationScoped
public class JdbcHostAccounts implements HostAccounts {

    private final Jdbc jdbc;

    public JdbcHostAccounts(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public boolean add(HostAccount account) {
        return jdbc.run("add the host account", c -> {
            try (PreparedStatement s = c.prepareStatement(
                    "INSERT INTO host_account (name, password_hash, admin, created_at) VALUES (?, ?, ?, ?)")) {
                s.setString(1, account.name());
                s.setString(2, account.passwordHash());
                s.setBoolean(3, account.admin());
                s.setObject(4, jdbc.now());
                s.executeUpdate();
                return true;
            } catch (SQLException e) {
                if (Jdbc.UNIQUE_VIOLATION.equals(e.getSQLState())) {
                    return false;
                }
                throw e;
            }
        });
    }

    @Override
    public boolean setPassword(String name, String passwordHash) {
        return jdbc.run("change the host's password", c -> {
            // A new password ends the host's sessions: whoever signed in with the old one is signed out.
            try (PreparedStatement s = c.prepareStatement("UPDATE host_account SET password_hash = ? WHERE name = ?");
                    PreparedStatement end = c.prepareStatement("DELETE FROM host_session WHERE host_name = ?")) {
                s.setString(1, passwordHash);
                s.setString(2, name);
                end.setString(1, name);
                end.executeUpdate();
                return s.executeUpdate() == 1;
            }
        });
    }

    @Override
    public Optional<HostAccount> find(String name) {
        return jdbc.run("read the host account", c -> {
            try (PreparedStatement s =
                    c.prepareStatement("SELECT name, password_hash, admin FROM host_account WHERE name = ?")) {
                s.setString(1, name);
                try (ResultSet rs = s.executeQuery()) {
                    return rs.next()
                            ? Optional.of(new HostAccount(rs.getString(1), rs.getString(2), rs.getBoolean(3)))
                            : Optional.empty();
                }
            }
        });
    }

    @Override
    public int count() {
        return jdbc.run("count the host accounts", c -> {
            try (PreparedStatement s = c.prepareStatement("SELECT COUNT(*) FROM host_account");
                    ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        });
    }
}
