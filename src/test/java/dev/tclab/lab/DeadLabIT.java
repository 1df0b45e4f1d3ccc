package dev.tclab.lab;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import com.github.dockerjava.api.DockerClient;
import dev.tclab.runtime.RuntimeAdapter;
import dev.tclab.web.TestLabs;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A learner's poll of a lab answers from what the server knows, with no engine call (see {@code LabResource#get});
 * a lab whose node died on the real engine still shows as dead from the next cull round, which asks the engine.
 */
@QuarkusTest
class DeadLabIT {

    @Inject
    LabService labs;

    @Inject
    RuntimeAdapter runtime;

    @Inject
    DockerClient docker;

    @Test
    void shouldShowALabWhoseNodeWasKilledAsDeadFromTheNextCullRound() throws Exception {
        String learner = Labs.newLearner();
        String id = TestLabs.startAndAwait("example", learner, Duration.ofSeconds(90));
        try {
            // As the kernel's OOM killer would, or a host's `docker kill`: the node's main process ends.
            docker.killContainerCmd("tclab-" + id + "-client").exec();

            labs.cull(Instant.now());

            given().cookie("tclab_learner", learner)
                    .get("/api/labs/" + id)
                    .then()
                    .statusCode(200)
                    .body("status", equalTo("failed"))
                    .body("reason", allOf(containsString("The lab died"), containsString("node client is exited")));
            assertThat(runtime.labsOnEngine())
                    .as("what is left of it is removed")
                    .doesNotContain(id);
        } finally {
            TestLabs.stop(id, learner);
        }
    }
}
