package dev.tclab.lab;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tclab.runtime.LabSpec;
import dev.tclab.runtime.topology.Topology;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The per-client start limits over the API (issue 10, row 9). The app trusts 127.0.0.1 as a proxy here, so each test
 * plays a client of its own through X-Forwarded-For, read by Quarkus's proxy support.
 */
@QuarkusTest
@TestProfile(ClientLimitsProfile.class)
class StartQuotaApiTest {

    @Inject
    FakeLabRuntime runtime;

    @Inject
    LabService labs;

    @Inject
    LabRegistry registry;

    @Inject
    StartQuota quota;

    @AfterEach
    void clean() throws Exception {
        Labs.clean(labs, runtime);
    }

    private static Response start(String client, String cookie, String lesson) {
        var request = given().header("X-Forwarded-For", client)
                .contentType(ContentType.JSON)
                .body("{\"lesson\": \"" + lesson + "\"}");
        return (cookie == null ? request : request.cookie("tclab_learner", cookie)).post("/api/labs");
    }

    @Test
    void shouldStopOneAddressWithoutCookiesFromTakingEverySlot() {
        // Row 9: six POST /api/labs without cookies took every lab slot in 0.56 s.
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Response response = start("198.51.100.9", null, "example");
            statuses.add(response.statusCode());
            if (response.statusCode() == 429) {
                response.then()
                        .body("error", containsString("4 labs are already running from your network address"))
                        .body("error", containsString("Stop a lab"));
            }
        }
        assertEquals(List.of(202, 202, 202, 202, 429, 429), statuses);
        assertEquals(4, labs.liveCount());
        start("198.51.100.10", null, "example").then().statusCode(202);
    }

    @Test
    void shouldLimitLiveLabsPerLearner() {
        String learner = given().header("X-Forwarded-For", "198.51.100.20")
                .get("/api/labs")
                .cookie("tclab_learner");
        start("198.51.100.20", learner, "example").then().statusCode(202);
        start("198.51.100.21", learner, "web-test").then().statusCode(202);
        start("198.51.100.21", learner, "example").then().statusCode(200);
        start("198.51.100.22", learner, "escaping")
                .then()
                .statusCode(429)
                .header("Retry-After", (String) null)
                .body("error", containsString("You already have 2 labs running (example, web-test)"));
    }

    @Test
    void shouldLimitTheStartRatePerAddressAndSayWhenToRetry() throws Exception {
        String client = "198.51.100.30";
        for (int i = 0; i < 5; i++) {
            String id = start(client, null, "example")
                    .then()
                    .statusCode(202)
                    .extract()
                    .path("id");
            Lab lab = labs.all().stream()
                    .filter(l -> l.id().equals(id))
                    .findFirst()
                    .orElseThrow();
            labs.stop(id, lab.owner());
        }
        start(client, null, "example")
                .then()
                .statusCode(429)
                // About an hour: one start per hour refills the bucket, and a little of that hour has passed.
                .header("Retry-After", Integer::parseInt, allOf(greaterThan(3500), lessThanOrEqualTo(3600)))
                .body("error", matchesPattern(".*Wait 3[56]\\d\\d s, then try again\\."));
        start("198.51.100.31", null, "example").then().statusCode(202);
    }

    @Test
    void shouldCountALabAdoptedAfterARestartAgainstItsLearnerAndAddress() throws Exception {
        // A lab recorded before a restart, started from 198.51.100.77: adopting it counts it, as admitting did.
        Instant created = Instant.now().minus(Duration.ofMinutes(20)).truncatedTo(ChronoUnit.MICROS);
        registry.save(new LabRecord(
                "quota-adopt",
                "quota-ann",
                "example",
                Map.of(),
                LabPhase.RUNNING,
                created,
                created.plusSeconds(1),
                created,
                null,
                null,
                2,
                "198.51.100.77"));
        Topology topology = TestTopologies.load("two-node");
        runtime.running.put("quota-adopt", new LabSpec("quota-adopt", topology, "quota-ann", "example"));
        labs.adoptRecorded();
        Lab adopted = labs.getRunning("quota-adopt", "quota-ann");
        List<Lab> admitted = new ArrayList<>();
        Lab second = new Lab("quota-2", "quota-ann", "ws-test", Map.of(), topology, Instant.now());
        quota.from("198.51.100.77").admit(second);
        admitted.add(second);
        QuotaExceededException perLearner = assertThrows(
                QuotaExceededException.class,
                () -> quota.from("198.51.100.78")
                        .admit(new Lab("quota-3", "quota-ann", "tbf", Map.of(), topology, Instant.now())));
        assertThat(perLearner.getMessage()).contains("You already have 2 labs running (example, ws-test)");
        for (int i = 0; i < 2; i++) {
            Lab other = new Lab("quota-o" + i, "quota-other" + i, "example", Map.of(), topology, Instant.now());
            quota.from("198.51.100.77").admit(other);
            admitted.add(other);
        }
        QuotaExceededException perAddress = assertThrows(
                QuotaExceededException.class,
                () -> quota.from("198.51.100.77")
                        .admit(new Lab("quota-x", "quota-bob", "example", Map.of(), topology, Instant.now())));
        assertThat(perAddress.getMessage()).contains("4 labs are already running from your network address");
        admitted.forEach(lab -> lab.stopped("test over", Instant.now()));
        labs.stop(adopted.id(), "quota-ann");
        assertThat(registry.find("quota-adopt"))
                .hasValueSatisfying(r -> assertThat(r.client())
                        .as("no address is kept once the lab ended")
                        .isNull());
    }
}
