package dev.tclab.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.junit.main.Launch;
import io.quarkus.test.junit.main.LaunchResult;
import io.quarkus.test.junit.main.QuarkusMainTest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** PostgreSQL chosen without its URL: the start stops and names the tclab key to set, not Quarkus's. */
@QuarkusMainTest
@TestProfile(PostgresWithoutUrlTest.NoUrl.class)
class PostgresWithoutUrlTest {

    public static class NoUrl implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("tclab.database.kind", "postgresql");
        }
    }

    @Test
    @Launch(
            value = {"selftest", "no-such-lesson"},
            exitCode = 1)
    void shouldSayWhichKeyToSet(LaunchResult result) {
        assertThat(result.getErrorOutput() + result.getOutput())
                .contains("tclab.database.kind is postgresql but tclab.database.url is not set");
    }
}
