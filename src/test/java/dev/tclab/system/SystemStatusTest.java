package dev.tclab.system;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.tclab.config.TclabConfig;
import dev.tclab.lab.FakeLabRuntime;
import dev.tclab.lab.FakeRuntimeProfile;
import dev.tclab.lab.LabService;
import dev.tclab.lab.TestTopologies;
import dev.tclab.runtime.LabSpec;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.vertx.http.HttpServerStart;
import io.vertx.core.http.HttpServerOptions;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The engine watcher: outages are reported, and a returning engine is picked up without a restart. */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class SystemStatusTest {

    @Inject
    SystemStatus status;

    @Inject
    FakeLabRuntime runtime;

    @Inject
    LabService labs;

    @Inject
    TclabConfig config;

    @Inject
    Event<HttpServerStart> serverStarted;

    @AfterEach
    void restore() {
        runtime.reset();
        status.refresh();
    }

    @Test
    void shouldRecoverByItselfWhenTheEngineReturns() {
        runtime.reachable = false;
        status.refresh();
        assertThat(status.snapshot().ready()).isFalse();
        assertThat(status.snapshot().problem()).contains("fake engine is down");

        runtime.reachable = true;
        runtime.running.put("left-over", new LabSpec("left-over", TestTopologies.load("two-node"), "x", "y"));
        status.refresh();

        assertThat(status.snapshot().ready()).isTrue();
        assertThat(status.snapshot().problem()).isNull();
        assertThat(status.snapshot().kernel().supports("qdisc:tbf")).isTrue();
        assertThat(runtime.running).as("orphans reaped on recovery").doesNotContainKey("left-over");
    }

    @Test
    void shouldReapOrphansOnceServingNotAtTheFirstCheck() throws Exception {
        // Reaping before the port is bound would let a second copy started by mistake remove the first one's labs.
        SystemStatus starting = new SystemStatus(runtime, labs, config);
        runtime.running.put("left-over", new LabSpec("left-over", TestTopologies.load("two-node"), "x", "y"));
        starting.refresh();
        assertThat(runtime.running).containsKey("left-over");
        // As Quarkus announces a listening server: asynchronously.
        serverStarted
                .fireAsync(new HttpServerStart(new HttpServerOptions()))
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        assertThat(runtime.running).doesNotContainKey("left-over");
    }

    @Test
    void shouldSayWhichCommandBuildsAMissingLabImage() {
        runtime.imagePresent = false;
        status.refresh();
        given().get("/api/system")
                .then()
                .statusCode(200)
                .body("labImagePresent", equalTo(false))
                .body("ready", equalTo(false))
                .body(
                        "problem",
                        equalTo("The lab image tclab/lab-node:1 is missing on the Docker engine. Build it with "
                                + "`lab-image/build.sh` (it builds offline when no registry is reachable)."));
    }

    @Test
    void shouldListKernelFeaturesAndCapacity() {
        given().get("/api/system")
                .then()
                .statusCode(200)
                .body("docker.reachable", equalTo(true))
                .body("kernel.'qdisc:cake'", equalTo(false))
                .body("kernel.'qdisc:tbf'", equalTo(true))
                .body("labsMax", equalTo(3))
                .body("ready", equalTo(true));
    }
}
