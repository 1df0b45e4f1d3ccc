package dev.tclab.store;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.UUID;

/**
 * Runs the app on the PostgreSQL that {@code bin/ensure-postgres} prepares (or {@code TCLAB_TEST_PG_URL},
 * {@code _USER}, {@code _PASSWORD}), in a schema of this test JVM's own, so runs side by side never meet.
 */
public class PostgresProfile implements QuarkusTestProfile {

    /** This JVM's schema; Flyway creates it. */
    public static final String SCHEMA =
            "t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

    static {
        // Every PostgreSQL test of this JVM shares the schema; it goes when the JVM ends.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try (Connection c = DriverManager.getConnection(url(), user(), password());
                    Statement s = c.createStatement()) {
                s.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
            } catch (SQLException e) {
                System.err.println("test schema " + SCHEMA + " was not dropped: " + e.getMessage());
            }
        }));
    }

    public static String url() {
        return env("TCLAB_TEST_PG_URL", "jdbc:postgresql://127.0.0.1:5432/tclab_test");
    }

    public static String user() {
        return env("TCLAB_TEST_PG_USER", "tclab_test");
    }

    public static String password() {
        return env("TCLAB_TEST_PG_PASSWORD", "tclab_test");
    }

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "tclab.database.kind",
                "postgresql",
                "tclab.database.url",
                url() + (url().contains("?") ? "&" : "?") + "currentSchema=" + SCHEMA,
                "tclab.database.username",
                user(),
                "tclab.database.password",
                password(),
                "quarkus.flyway.\"postgresql\".schemas",
                SCHEMA);
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
