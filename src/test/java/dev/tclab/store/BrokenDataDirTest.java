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
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A data directory the app cannot use is reported and left as it is: a file that is not an H2 database, a database
 * another process has open, and a database whose schema is newer than this tclab. The tests use this class's
 * directory, given as a relative path (as the default {@code data} is), and set its file up first.
 *
 * <p>A failed start does no lab work: it adopts no lab and starts no pool refill, whose thread used to open the
 * database again after the failed start had closed it (seen at a load average of 15; the launches share one class
 * loader, so H2 then kept that database open for every later launch). The newer-schema test still runs last, as the
 * only one that leaves a database which opens.
 */
@QuarkusMainTest
@TestProfile(BrokenDataDirTest.OwnDataDir.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BrokenDataDirTest {

    static final Path RELATIVE_DIR = Path.of("target", "h2-broken-" + UUID.randomUUID());
    static final Path DIR = RELATIVE_DIR.toAbsolutePath();

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
        assertThat(launcher.launch("selftest", "no-such-lesson").exitCode())
                .as("a first start makes and migrates the database, then the self-test finds no such lesson")
                .isEqualTo(2);
        String url = "jdbc:h2:file:" + DIR + "/tclab;AUTO_SERVER=FALSE;WRITE_DELAY=0";
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

    /** Adoption and the pool's refill come after every start-up check, so a start that fails on one does neither. */
    private static void assertNoLabWork(LaunchResult failedStart) {
        assertThat(failedStart.getErrorOutput() + failedStart.getOutput())
                .doesNotContain("cannot read the lab registry")
                .doesNotContain("tclab-pool-refill");
    }
}
