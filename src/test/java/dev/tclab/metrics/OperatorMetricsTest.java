package dev.tclab.metrics;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.lab.FakeLabRuntime;
import dev.tclab.lab.FakeRuntimeProfile;
import dev.tclab.learner.LearnerIds;
import dev.tclab.runtime.ExecResult;
import dev.tclab.tc.Fixtures;
import dev.tclab.web.TestLabs;
import dev.tclab.web.TestSocket;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** /q/metrics shows what an operator watches: labs by phase, starts, checks, slot waits, sockets, the engine. */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class OperatorMetricsTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @TestHTTPResource("/")
    URI base;

    @Inject
    LearnerIds learnerIds;

    @Inject
    FakeLabRuntime runtime;

    @Test
    void shouldExportLabsStartsChecksSlotWaitsSocketsAndTheEngine() throws Exception {
        runtime.reset();
        runtime.execHandler = (node, command) -> command.contains("iperf3")
                ? new ExecResult(0, Fixtures.read("iperf3/iperf3-tcp-tbf10.json"), "", false)
                : command.contains("ping")
                        ? new ExecResult(0, Fixtures.read("ping/ping-iputils.txt"), "", false)
                        : new ExecResult(0, "", "", false);
        String cookie = learnerIds.sign(learnerIds.newId());
        String lab = TestLabs.startAndAwait("example", cookie, WAIT);
        try (TestSocket terminal = TestSocket.terminal(base, lab, "client", cookie);
                TestSocket stats = TestSocket.stats(base, lab, cookie)) {
            check(cookie, lab, "shape");
            String metrics =
                    given().get("/q/metrics").then().statusCode(200).extract().asString();

            assertThat(value(metrics, "tclab_labs\\{phase=\"running\"}")).isGreaterThanOrEqualTo(1);
            assertThat(value(metrics, "tclab_labs\\{phase=\"starting\"}")).isGreaterThanOrEqualTo(0);
            assertThat(value(metrics, "tclab_labs\\{phase=\"queued\"}")).isZero();
            assertThat(value(metrics, "tclab_labs_max")).isEqualTo(3);
            assertThat(value(metrics, "tclab_lab_start_seconds_count\\{outcome=\"ready\"}"))
                    .isGreaterThanOrEqualTo(1);
            assertThat(metrics).contains("tclab_lab_start_seconds_bucket{outcome=\"ready\",le=");
            assertThat(value(metrics, "tclab_lab_queue_wait_seconds_count")).isGreaterThanOrEqualTo(0);
            assertThat(value(metrics, "tclab_check_duration_seconds_count\\{outcome=\"passed\"}"))
                    .isGreaterThanOrEqualTo(1);
            assertThat(metrics).contains("tclab_check_duration_seconds_bucket{outcome=\"passed\",le=");
            assertThat(value(metrics, "tclab_measurement_slot_wait_seconds_count"))
                    .isGreaterThanOrEqualTo(1);
            assertThat(value(metrics, "tclab_measurement_slots_used")).isZero();
            assertThat(value(metrics, "tclab_measurement_slots_waiting")).isZero();
            assertThat(value(metrics, "tclab_sockets_open\\{kind=\"terminal\"}"))
                    .isEqualTo(1);
            assertThat(value(metrics, "tclab_sockets_open\\{kind=\"stats\"}")).isEqualTo(1);
            assertThat(value(metrics, "tclab_engine_reachable")).isEqualTo(1);
        } finally {
            TestLabs.stop(lab, cookie);
        }
    }

    private static void check(String cookie, String lab, String step) throws InterruptedException {
        String run = given().cookie(LearnerIds.COOKIE, cookie)
                .contentType(ContentType.JSON)
                .post("/api/labs/" + lab + "/steps/" + step + "/check")
                .then()
                .statusCode(202)
                .extract()
                .path("id");
        for (int i = 0; i < 200; i++) {
            if (given().cookie(LearnerIds.COOKIE, cookie)
                    .get("/api/labs/" + lab + "/checks/" + run)
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath()
                    .getBoolean("finished")) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the check run did not finish");
    }

    /** The sample's value in the Prometheus text format; fails when the series is missing. */
    private static double value(String metrics, String series) {
        Matcher m = Pattern.compile("(?m)^" + series + " ([0-9.eE+-]+)$").matcher(metrics);
        assertThat(m.find()).as(series + " in /q/metrics").isTrue();
        return Double.parseDouble(m.group(1));
    }
}
