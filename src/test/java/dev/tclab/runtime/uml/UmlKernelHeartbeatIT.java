package dev.tclab.runtime.uml;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import dev.tclab.learner.LearnerIds;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.runtime.NodeNotFoundException;
import dev.tclab.runtime.RuntimeAdapter;
import dev.tclab.web.TestLabs;
import dev.tclab.web.TestSocket;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.smallrye.common.annotation.Identifier;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * A UML lab whose kernel stops answering is marked failed with a reason in plain words, its open terminal says it, its
 * container is removed, and the learner's next start gets a fresh lab. The kernel is silenced from its root
 * namespaces, which a node does not reach: its agent, the process that answers the heartbeat, is stopped (SIGSTOP).
 * On UML 6.1 a node's root once hung the whole kernel with 0 written to {@code /proc/sysemu} (UmlGlobalFilesIT); UML
 * 7.2 has no such file, and to the app both are the same silence. The container keeps running, so no engine status
 * shows it; a {@code docker pause} would, and the cull fails such a lab as "paused".
 */
@QuarkusTest
class UmlKernelHeartbeatIT {

    private static final Logger LOG = Logger.getLogger(UmlKernelHeartbeatIT.class);
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TestHTTPResource("/")
    URI base;

    @Inject
    LearnerIds learnerIds;

    @Inject
    DockerClient docker;

    @Inject
    @Identifier("uml")
    RuntimeAdapter runtime;

    @Test
    void shouldFailALabWhoseKernelStopsAnsweringTellItsTerminalAndStartAFreshOne() throws Exception {
        String cookie = learnerIds.sign(learnerIds.newId());
        String lab = TestLabs.startAndAwait("uml-test", cookie, Duration.ofSeconds(120));
        String container = UmlLabRuntime.containerName(lab);
        try (TestSocket terminal = TestSocket.terminal(base, lab, "client", cookie)) {
            List<String> texts = new CopyOnWriteArrayList<>();
            terminal.observeTexts(texts::add);
            terminal.sendBinary("echo up-$((6*7))\n");
            terminal.awaitOutput(out -> out.contains("up-42"), WAIT);
            // A learner's lesson page probes the labs' kernel (its guarded blocks) before Start; this lesson has none.
            runtime.probeKernel();
            Response details = given().cookie(LearnerIds.COOKIE, cookie).get("/api/labs/" + lab);
            assertThat((String) details.path("ownKernel.mode"))
                    .as("the lab's details say how its kernel runs: " + details.asString())
                    .isIn("seccomp", "ptrace");
            assertThat((String) details.path("ownKernel.release")).isNotBlank();

            // Never answered: the platform's command runs under timeout(1), a child of the agent it stops.
            CompletableFuture.runAsync(() -> {
                try {
                    runtime.exec(
                            lab,
                            "server",
                            List.of("sh", "-c", "kill -STOP $(awk '{print $4}' /proc/$PPID/stat)"),
                            Duration.ofSeconds(5));
                } catch (EngineUnavailableException | NodeNotFoundException e) {
                    // The heartbeat abandons its agent, and so this request.
                }
            });
            long hung = System.nanoTime();
            Response seen = given().cookie(LearnerIds.COOKIE, cookie).get("/api/labs/" + lab);
            while ("running".equals(seen.path("status"))) {
                assertThat(System.nanoTime() - hung)
                        .as("the lab is marked failed within " + WAIT)
                        .isLessThan(WAIT.toNanos());
                Thread.sleep(100);
                seen = given().cookie(LearnerIds.COOKIE, cookie).get("/api/labs/" + lab);
            }
            double failedAfter = (System.nanoTime() - hung) / 1e9;
            assertThat((String) seen.path("status")).isEqualTo("failed");
            assertThat((String) seen.path("reason")).isEqualTo(LabRuntime.KERNEL_SILENT);
            // Silent for 10 s since its last answer, which came at most one heartbeat (3 s) before the hang.
            assertThat(failedAfter).as("seconds from the hang to failed").isBetween(7.0, 30.0);

            // The hung kernel's last words put its agent's output out of step: the open terminal was told its line
            // broke (1013, as when the engine goes away), and the page's reconnection is told why the lab ended.
            terminal.awaitClose(WAIT);
            LOG.infof("UML heartbeat: the open terminal was told %s", texts);
            try (TestSocket reopened = TestSocket.terminal(base, lab, "client", cookie)) {
                reopened.awaitClose(WAIT);
                assertThat(reopened.pollText(Duration.ofSeconds(5)))
                        .as("a terminal opened on the failed lab")
                        .contains("kernel stopped answering");
            }
            long removing = System.nanoTime();
            while (exists(container)) {
                assertThat(System.nanoTime() - removing)
                        .as("the hung kernel's container is removed within " + WAIT)
                        .isLessThan(WAIT.toNanos());
                Thread.sleep(200);
            }
            LOG.infof(
                    "UML heartbeat: the lab was failed %.1f s after its kernel hung, and its container"
                            + " removed %.1f s after that",
                    failedAfter, (System.nanoTime() - removing) / 1e9);
        } finally {
            TestLabs.stop(lab, cookie);
        }

        String again = TestLabs.startAndAwait("uml-test", cookie, Duration.ofSeconds(120));
        try {
            assertThat(again).as("a fresh lab").isNotEqualTo(lab);
        } finally {
            TestLabs.stop(again, cookie);
        }
    }

    private boolean exists(String container) {
        try {
            docker.inspectContainerCmd(container).exec();
            return true;
        } catch (NotFoundException e) {
            return false;
        }
    }
}
