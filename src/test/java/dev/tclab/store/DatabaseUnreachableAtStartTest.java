package dev.tclab.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.junit.main.Launch;
import io.quarkus.test.junit.main.LaunchResult;
import io.quarkus.test.junit.main.QuarkusMainTest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A PostgreSQL that does not answer at start stops the app with one sentence: which URL, what to check. */
@QuarkusMainTest
@TestProfile(DatabaseUnreachableAtStartTest.NothingListens.class)
class DatabaseUnreachableAtStartTest {

    static final String URL = "jdbc:postgresql://127.0.0.1:9/tclab";

    public static class NothingListens implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "tclab.database.kind",
                    "postgresql",
                    "tclab.database.url",
                    URL,
                    "tclab.database.username",
                    "tclab",
                    "tclab.database.password",
                    "secret");
        }
    }

    /** "selftest" of a lesson that does not exist exits 2 at once, had the app started. */
    @Test
    @Launch(
            value = {"selftest", "no-such-lesson"},
            exitCode = 1)
    void shouldStopWithOneSentenceNamingTheUrlAndWhatToCheck(LaunchResult result) {
        assertThat(result.getErrorOutput() + result.getOutput())
                .contains("tclab cannot reach its PostgreSQL database at " + URL + ": ")
                .contains("Check that the server runs and that tclab.database.url, .username and .password are right.")
                .doesNotContain("secret");
    }
}
