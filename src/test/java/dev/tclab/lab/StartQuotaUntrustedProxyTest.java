package dev.tclab.lab;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Without a trusted proxy configured, a client cannot dodge the per-address limit by naming other addresses. */
@QuarkusTest
@TestProfile(StartQuotaUntrustedProxyTest.OneLabPerAddress.class)
class StartQuotaUntrustedProxyTest {

    public static class OneLabPerAddress implements QuarkusTestProfile {
        @Override
        public Set<Class<?>> getEnabledAlternatives() {
            return Set.of(FakeLabRuntime.class);
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("tclab.lab.max-running", "10", "tclab.quota.live-labs-per-address", "1");
        }
    }

    @Inject
    FakeLabRuntime runtime;

    @Inject
    LabService labs;

    @AfterEach
    void clean() throws Exception {
        Labs.clean(labs, runtime);
    }

    @Test
    void shouldIgnoreForwardedHeadersFromAnUntrustedPeer() {
        given().header("X-Forwarded-For", "198.51.100.1")
                .contentType(ContentType.JSON)
                .body("{\"lesson\": \"example\"}")
                .post("/api/labs")
                .then()
                .statusCode(202);
        given().header("X-Forwarded-For", "198.51.100.2")
                .header("Forwarded", "for=198.51.100.3")
                .contentType(ContentType.JSON)
                .body("{\"lesson\": \"example\"}")
                .post("/api/labs")
                .then()
                .statusCode(429)
                .body("error", containsString("from your network address"));
    }
}
