package dev.tclab.system;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The real Docker runtime pointed at an engine that does not exist: the app stays up and says what is wrong. */
@QuarkusTest
@TestProfile(DockerUnreachableTest.NoEngine.class)
class DockerUnreachableTest {

    public static class NoEngine implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("tclab.docker.host", "unix:///tmp/tclab-no-such-docker.sock");
        }
    }

    @Test
    void shouldReportTheEngineAsUnreachableWithTheEndpointAndReason() {
        given().get("/api/system")
                .then()
                .statusCode(200)
                .body("docker.reachable", equalTo(false))
                .body("docker.endpoint", equalTo("unix:///tmp/tclab-no-such-docker.sock"))
                .body("docker.error", containsString("No such file or directory"))
                .body("ready", equalTo(false))
                .body("problem", containsString("does not answer"))
                .body("problem", containsString("reconnects by itself"));
    }

    @Test
    void shouldRefuseToStartALabWithAClearError() {
        given().contentType(ContentType.JSON)
                .body("{\"lesson\": \"example\"}")
                .post("/api/labs")
                .then()
                .statusCode(503)
                .body("error", containsString("The Docker engine does not answer"))
                .body("error", containsString("unix:///tmp/tclab-no-such-docker.sock"));
    }

    @Test
    void shouldBeNotReadyWithTheReasonButAlive() {
        given().get("/q/health/ready")
                .then()
                .statusCode(503)
                .body("checks.find { it.name == 'Docker engine' }.status", equalTo("DOWN"))
                .body("checks.find { it.name == 'Docker engine' }.data.reason", containsString("does not answer"))
                .body(
                        "checks.find { it.name == 'Docker engine' }.data.endpoint",
                        equalTo("unix:///tmp/tclab-no-such-docker.sock"))
                .body("checks.find { it.name.contains('Database') }.status", equalTo("UP"));
        given().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
    }

    @Test
    void shouldKeepServingTheRestOfTheApp() {
        given().get("/q/health/live").then().statusCode(200);
        given().get("/api/labs").then().statusCode(200).body("size()", equalTo(0));
    }
}
