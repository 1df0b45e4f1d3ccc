package dev.tclab.lab;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import dev.tclab.learner.LearnerIds;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.runtime.NodeStatus;
import dev.tclab.terminal.TerminalSessions;
import dev.tclab.web.TestSocket;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The warm pool on the real engine: a pool of one lab is started at boot, a learner's Start gets that lab (running
 * at once, owned in the database), its terminal is the shell started with the pooled lab and works, and the pool
 * starts a new lab.
 */
@QuarkusTest
@TestProfile(WarmPoolIT.PoolOfOne.class)
class WarmPoolIT {

    private static final String LESSON = "ws-test";
    private static final Duration WAIT = Duration.ofSeconds(20);

    public static class PoolOfOne implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("tclab.pool.\"" + LESSON + "\"", "1");
        }
    }

    @TestHTTPResource("/")
    URI base;

    @Inject
    LabService labs;

    @Inject
    LabRuntime runtime;

    @Inject
    LabRegistry registry;

    @Inject
    LearnerIds learnerIds;

    @Inject
    TerminalSessions shells;

    @AfterEach
    void stopLearnersLabs() throws Exception {
        for (Lab lab : labs.all()) {
            if (lab.phase().live()) {
                labs.stop(lab.id(), lab.owner());
            }
        }
    }

    private static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(condition.getAsBoolean()).as(what).isTrue();
    }

    /** A ready pooled lab, also in the registry: its RUNNING record is written just after it runs in memory. */
    private boolean onePooledLabRecordedRunning() {
        return labs.pooledReady(LESSON) == 1
                && registry.live().stream()
                        .anyMatch(r -> r.owner() == null && r.lesson().equals(LESSON) && r.phase() == LabPhase.RUNNING);
    }

    private String pooledId() {
        return registry.live().stream()
                .filter(r -> r.owner() == null && r.lesson().equals(LESSON) && r.phase() == LabPhase.RUNNING)
                .map(LabRecord::id)
                .findFirst()
                .orElseThrow();
    }

    private boolean allNodesRun(String labId) {
        try {
            List<NodeStatus> nodes = runtime.status(labId);
            return !nodes.isEmpty() && nodes.stream().allMatch(NodeStatus::running);
        } catch (EngineUnavailableException e) {
            return false;
        }
    }

    @Test
    void shouldHandThePooledLabToTheLearnerWithAWorkingTerminalAndStartAnother() throws Exception {
        await("a ready pooled lab", Duration.ofSeconds(90), this::onePooledLabRecordedRunning);
        String pooled = pooledId();
        assertThat(allNodesRun(pooled)).isTrue();
        await("the pooled lab's two terminal shells started ahead", WAIT, () -> shells.openCount(pooled) == 2);
        String cookie = learnerIds.sign(learnerIds.newId());

        String id = given().cookie(LearnerIds.COOKIE, cookie)
                .contentType(ContentType.JSON)
                .body("{\"lesson\":\"" + LESSON + "\"}")
                .post("/api/labs")
                .then()
                .statusCode(202)
                .body("status", equalTo("running"))
                .body("reason", nullValue())
                .extract()
                .path("id");
        assertThat(id).as("the pooled lab, handed out as it runs").isEqualTo(pooled);
        assertThat(registry.live())
                .filteredOn(r -> r.id().equals(id))
                .singleElement()
                .satisfies(r -> assertThat(r.owner())
                        .isEqualTo(learnerIds.verify(cookie).orElseThrow()));

        try (TestSocket terminal =
                TestSocket.open(base, "/ws/labs/" + id + "/nodes/client/terminal", cookie, TestSocket.originOf(base))) {
            terminal.awaitOutput(out -> out.contains("@client"), WAIT);
            assertThat(terminal.nextShellFrame(WAIT)).as("new to the learner").contains("\"fresh\":true");
            assertThat(shells.openCount(id))
                    .as("the shell started with the pooled lab, no second one")
                    .isEqualTo(2);
            terminal.sendBinary("echo pooled-$((20+22))\r");
            terminal.awaitOutput(out -> out.contains("pooled-42"), WAIT);
        }

        await("the pool's next lab", Duration.ofSeconds(90), this::onePooledLabRecordedRunning);
        String next = pooledId();
        assertThat(next).isNotEqualTo(id);
        assertThat(allNodesRun(next)).isTrue();
        assertThat(given().get("/q/metrics").then().statusCode(200).extract().asString())
                .contains("tclab_labs{phase=\"pooled\"} 1.0")
                .containsPattern("tclab_pool_handouts_total [1-9]");
    }
}
