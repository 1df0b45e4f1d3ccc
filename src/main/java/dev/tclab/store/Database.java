package dev.tclab.store;

import dev.tclab.config.TclabConfig;
import io.agroal.api.AgroalDataSource;
import io.quarkus.agroal.DataSource;
import io.quarkus.arc.InjectableInstance;
import io.quarkus.flyway.FlywayDataSource;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationState;
import org.jboss.logging.Logger;

/**
 * The one database of this app (H2 or PostgreSQL, by {@code tclab.database.kind}): opened and migrated when it is
 * first needed, which is at start. A database that cannot be reached, a schema newer than this build, or a data
 * directory that is not a database stops the start with one sentence saying which and what to do; nothing is reset.
 */
@ApplicationScoped
@Startup
public class Database {

    private static final Logger LOG = Logger.getLogger(Database.class);
    static final String POSTGRESQL = "postgresql";
    /** H2's ErrorCode.DATABASE_ALREADY_OPEN_1: the database file is locked by another process. */
    static final int H2_DATABASE_ALREADY_OPEN = 90020;

    private final TclabConfig config;
    private final AgroalDataSource dataSource;
    private final Flyway flyway;

    public Database(
            TclabConfig config,
            InjectableInstance<AgroalDataSource> h2,
            @DataSource(POSTGRESQL) InjectableInstance<AgroalDataSource> postgresql,
            InjectableInstance<Flyway> h2Flyway,
            @FlywayDataSource(POSTGRESQL) InjectableInstance<Flyway> postgresqlFlyway) {
        this.config = config;
        boolean pg = config.database().kind() == TclabConfig.Database.Kind.POSTGRESQL;
        if (pg && config.database().url().isEmpty()) {
            throw fail("tclab.database.kind is postgresql but tclab.database.url is not set: set it (e.g."
                    + " jdbc:postgresql://db.example:5432/tclab) with tclab.database.username and .password.");
        }
        this.dataSource = pg ? postgresql.get() : h2.get();
        this.flyway = pg ? postgresqlFlyway.get() : h2Flyway.get();
    }

    @PostConstruct
    void open() {
        if (url().startsWith("jdbc:h2:file:")) {
            createDataDir();
        }
        try (Connection c = dataSource.getConnection()) {
            LOG.debugf(
                    "database %s %s",
                    c.getMetaData().getDatabaseProductName(), c.getMetaData().getDatabaseProductVersion());
        } catch (SQLException e) {
            throw fail(unreachable(e));
        }
        refuseNewerSchema();
        try {
            var result = flyway.migrate();
            if (result.migrationsExecuted > 0) {
                LOG.infof("Database %s migrated to schema version %s", describe(), result.targetSchemaVersion);
            }
        } catch (FlywayException e) {
            throw fail("The database " + describe() + " could not be brought to this tclab's schema: "
                    + firstLine(e.getMessage())
                    + ". Nothing was reset; restore a backup or ask for help with this message.");
        }
    }

    /** A connection from the pool; the caller closes it. */
    public Connection connection() throws SQLException {
        return dataSource.getConnection();
    }

    /** Which database this is, for messages: its JDBC URL (credentials are separate keys, never in it). */
    public String describe() {
        return url();
    }

    private String url() {
        return dataSource
                .getConfiguration()
                .connectionPoolConfiguration()
                .connectionFactoryConfiguration()
                .jdbcUrl();
    }

    private Path dataDir() {
        return Path.of(config.dataDir());
    }

    private void createDataDir() {
        try {
            Files.createDirectories(dataDir());
        } catch (IOException e) {
            throw fail("tclab cannot create its data directory "
                    + dataDir().toAbsolutePath().normalize() + " (" + e
                    + "). Create it, or set tclab.data-dir to a folder the app may write.");
        }
    }

    /** Flyway would ignore migrations it does not know; a newer tclab's schema must not be used by an older one. */
    private void refuseNewerSchema() {
        MigrationInfo[] future;
        try {
            future = Arrays.stream(flyway.info().all())
                    .filter(m -> m.getState() == MigrationState.FUTURE_SUCCESS
                            || m.getState() == MigrationState.FUTURE_FAILED)
                    .toArray(MigrationInfo[]::new);
        } catch (FlywayException e) {
            throw fail("The database " + describe() + " cannot be read: " + firstLine(e.getMessage())
                    + ". Nothing was reset; restore a backup or move the data directory aside to start afresh.");
        }
        if (future.length > 0) {
            throw fail("The database " + describe() + " holds schema version "
                    + Arrays.stream(future).map(m -> m.getVersion().toString()).collect(Collectors.joining(", "))
                    + " from a newer tclab than this one. Run that newer tclab (or restore a backup made for this one); "
                    + "nothing was changed.");
        }
    }

    private String unreachable(SQLException e) {
        String why = firstLine(e.getMessage());
        if (config.database().kind() == TclabConfig.Database.Kind.POSTGRESQL) {
            return "tclab cannot reach its PostgreSQL database at " + describe() + ": " + why
                    + ". Check that the server runs and that tclab.database.url, .username and .password are right.";
        }
        return h2Refusal(dataDir(), e);
    }

    /**
     * Why H2 refused to open the data directory, in H2's own words first; "in use" only when H2 found the file
     * locked (its error 90020: another process holds the lock on {@code tclab.mv.db}).
     */
    static String h2Refusal(Path dataDir, SQLException e) {
        String where = "tclab cannot open its H2 database in "
                + dataDir.toAbsolutePath().normalize() + ": " + firstLine(e.getMessage()) + ". ";
        if (lockedByAnotherProcess(e)) {
            return where + "Another process (a tclab serving from this directory, or `bin/tclab host` while a server"
                    + " runs) has it open: stop that one first, or set tclab.data-dir to another folder.";
        }
        return where + "Nothing was reset; restore a backup or move the directory aside to start afresh.";
    }

    private static boolean lockedByAnotherProcess(SQLException e) {
        return e.getErrorCode() == H2_DATABASE_ALREADY_OPEN;
    }

    private static IllegalStateException fail(String sentence) {
        LOG.error(sentence);
        return new IllegalStateException(sentence);
    }

    static String firstLine(String message) {
        if (message == null) {
            return "no detail";
        }
        String line = message.strip().lines().findFirst().orElse("no detail");
        return line.endsWith(".") ? line.substring(0, line.length() - 1) : line;
    }
}
