package dev.tclab.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.junit.main.LaunchResult;
import io.quarkus.test.junit.main.QuarkusMainLauncher;
import io.quarkus.test.junit.main.QuarkusMainTest;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A database the app cannot use stops its start with words saying what is wrong, and is left as it is: a data
 * directory whose file is not an H2 database, a database another process has open, a database whose schema is newer
 * than this tclab, a PostgreSQL that does not answer, and PostgreSQL chosen without its URL. The H2 tests use this
 * class's directory, given as a relative path (as the default {@code data} is), and set its file up first.
 *
 * <p>One class and one profile for every refusal: each {@code @QuarkusMainTest} class costs Quarkus a preparation of
 * its own (seconds), and each launch builds the app again anyway. A launch that needs other settings gives them as
 * system properties for that launch only ({@link #launch}), which the app's configuration reads at its start.
 *
 * <p>A failed start does no lab work: it adopts no lab and starts no pool refill, whose thread used to open the
 * database again after the failed start had closed it (seen at a load average of 15; the launches share one class
 * loader, so H2 then kept that database open for every later launch). The newer-schema test still runs last, as the
 * only one that leaves a database which opens.
 */
@QuarkusMainTest
@TestProfile(StartRefusalsTest.OwnDataDir.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StartRefusalsTest {

    static final Path RELATIVE_DIR = Path.of("target", "h2-broken-" + UUID.randomUUID());
    static final Path DIR = RELATIVE_DIR.toAbsolutePath();
    static final String UNREACHABLE_URL = "jdbc:postgresql://127.0.0.1:9/tclab";

    public static class OwnDataDir implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "tclab.data-dir", RELATIVE_DIR.toString(), "quarkus.datasource.jdbc.url", "${tclab-h2-file-url}");
        }
    }

    @Test
    void shouldReportAFileThatIsNotADatabaseAndLeaveItAlone(QuarkusMainLauncher launcher) throws Exception {
        Files.createDirectories(DIR);
        Path file = DIR.resolve("tclab.mv.db");
        byte[] garbage = "this is not an H2 database, it is a learner's notes\n"
                .repeat(200)
                .getBytes(StandardCharsets.UTF_8);
        Files.write(file, garbage);

        LaunchResult result = launcher.launch("selftest", "no-such-lesson");

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.getErrorOutput() + result.getOutput())
                .contains("tclab cannot open its H2 database in " + DIR)
                .contains("Nothing was reset; restore a backup or move the directory aside to start afresh")
                .doesNotContain("Another process");
        assertNoLabWork(result);
        assertThat(Files.readAllBytes(file)).isEqualTo(garbage);
        Files.delete(file);
    }

    @Test
    void shouldSayAnotherProcessHasTheDatabaseOpenWhenItsFileIsLocked(QuarkusMainLauncher launcher) throws Exception {
        Files.createDirectories(DIR);
        Path file = DIR.resolve("tclab.mv.db");
        Files.deleteIfExists(file);
        // An empty H2 database, made without a start of the app (a start costs seconds; the last launch below
        // proves a start on it works).
        DriverManager.getConnection("jdbc:h2:file:" + DIR + "/tclab").close();
        assertThat(file).exists();
        LaunchResult result;
        // The lock H2 takes on its file when another process opens it (here: this JVM, outside the app's class loader).
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
                FileLock lock = channel.lock()) {
            result = launcher.launch("selftest", "no-such-lesson");
        }

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.getErrorOutput() + result.getOutput())
                .contains("tclab cannot open its H2 database in " + DIR + ": Database may be already in use")
                .contains("Another process (a tclab serving from this directory");
        assertNoLabWork(result);
        assertThat(launcher.launch("selftest", "no-such-lesson").exitCode())
                .as("the database opens, and is migrated, once the lock is gone")
                .isEqualTo(2);
    }

    @Test
    @Order(Integer.MAX_VALUE)
    void shouldRefuseASchemaFromANewerTclabAndChangeNothing(QuarkusMainLauncher launcher) throws Exception {
        Files.deleteIfExists(DIR.resolve("tclab.mv.db"));
        String url = "jdbc:h2:file:" + DIR + "/tclab;AUTO_SERVER=FALSE;WRITE_DELAY=0";
        // The app's migrations, run without a start of the app (each launch builds the app again: seconds; the
        // lock test above proves a start makes and migrates a database).
        Flyway.configure().dataSource(url, null, null).load().migrate();
        try (Connection c = DriverManager.getConnection(url);
                Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO \"flyway_schema_history\" (\"installed_rank\", \"version\", \"description\","
                    + " \"type\", \"script\", \"checksum\", \"installed_by\", \"execution_time\", \"success\")"
                    + " VALUES (99, '99', 'from the future', 'SQL', 'V99__future.sql', 0, 'test', 0, TRUE)");
        }

        LaunchResult result = launcher.launch("selftest", "no-such-lesson");

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.getErrorOutput() + result.getOutput())
                .contains("holds schema version 99 from a newer tclab than this one")
                .contains("nothing was changed");
        assertNoLabWork(result);
        try (Connection c = DriverManager.getConnection(url);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT MAX(\"installed_rank\") FROM \"flyway_schema_history\"")) {
            rs.next();
            assertThat(rs.getInt(1)).as("no migration ran after the refusal").isEqualTo(99);
        }
    }

    /** "selftest" of a lesson that does not exist exits 2 at once, had the app started. */
    @Test
    void shouldStopWithOneSentenceNamingTheUrlAndWhatToCheckWhenPostgresqlDoesNotAnswer(QuarkusMainLauncher launcher) {
        LaunchResult result = launch(
                launcher,
                Map.of(
                        "tclab.database.kind",
                        "postgresql",
                        "tclab.database.url",
                        UNREACHABLE_URL,
                        "tclab.database.username",
                        "tclab",
                        "tclab.database.password",
                        "secret"));

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.getErrorOutput() + result.getOutput())
                .contains("tclab cannot reach its PostgreSQL database at " + UNREACHABLE_URL + ": ")
                .contains("Check that the server runs and that tclab.database.url, .username and .password are right.")
                .doesNotContain("secret");
    }

    /** PostgreSQL chosen without its URL: the start stops and names the tclab key to set, not Quarkus's. */
    @Test
    void shouldSayWhichKeyToSetWhenPostgresqlHasNoUrl(QuarkusMainLauncher launcher) {
        LaunchResult result = launch(launcher, Map.of("tclab.database.kind", "postgresql"));

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.getErrorOutput() + result.getOutput())
                .contains("tclab.database.kind is postgresql but tclab.database.url is not set");
    }

    /**
     * "selftest no-such-lesson" with {@code settings} as system properties, which outrank application.properties in
     * the app's configuration; they are put back as they were after the launch.
     */
    private static LaunchResult launch(QuarkusMainLauncher launcher, Map<String, String> settings) {
        Map<String, String> before = new HashMap<>();
        settings.forEach((key, value) -> before.put(key, System.setProperty(key, value)));
        try {
            return launcher.launch("selftest", "no-such-lesson");
        } finally {
            before.forEach((key, value) -> {
                if (value == null) {
                    System.clearProperty(key);
                } else {
                    System.setProperty(key, value);
                }
            });
        }
    }

    /** Adoption and the pool's refill come after every start-up check, so a start that fails on one does neither. */
    private static void assertNoLabWork(LaunchResult failedStart) {
        assertThat(failedStart.getErrorOutput() + failedStart.getOutput())
                .doesNotContain("cannot read the lab registry")
                .doesNotContain("tclab-pool-refill");
    }
}
