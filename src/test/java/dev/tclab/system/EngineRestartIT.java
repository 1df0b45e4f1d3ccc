package dev.tclab.system;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tclab.grading.run.BaselineSteps;
import dev.tclab.grading.run.CheckResult;
import dev.tclab.grading.run.CheckRunner;
import dev.tclab.grading.spec.CheckSpecParser;
import dev.tclab.http.SocketCloseCodes;
import dev.tclab.learner.LearnerIds;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.web.TestLabs;
import dev.tclab.web.TestSocket;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * Issue 10, row 11 and item 8: the engine stopped and started mid-lesson. A private dockerd with live-restore (the
 * system's is shared with other tests and never stopped): open terminals are closed with 1013, the system status
 * says the engine is down, and once it is back the lab is still running, a new terminal works and a check passes.
 */
@QuarkusTest
@TestProfile(PrivateEngineProfile.class)
class EngineRestartIT {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @TestHTTPResource("/")
    URI base;

    @Inject
    LearnerIds learnerIds;

    @Inject
    LabRuntime runtime;

    @Inject
    CheckRunner checks;

    @Test
    void shouldCloseTerminalsWith1013WhileTheEngineIsDownAndKeepTheLabWhenItReturns() throws Exception {
        String cookie = learnerIds.sign(learnerIds.newId());
        String labId = TestLabs.startAndAwait("ws-test", cookie, Duration.ofSeconds(60));
        try {
            try (TestSocket terminal = terminal(labId, cookie)) {
                terminal.sendBinary("echo before-$((20+1))\r");
                terminal.awaitOutput(out -> out.contains("before-21"), WAIT);

                long stopped = System.nanoTime();
                PrivateEngineProfile.DOCKERD.stop();
                assertEquals(SocketCloseCodes.ENGINE_UNAVAILABLE, terminal.awaitClose(WAIT), "closed with 1013");
                System.out.printf(
                        "terminal closed with 1013 %.1f s after the engine stopped%n",
                        (System.nanoTime() - stopped) / 1e9);
                assertTrue(
                        terminal.nextText(WAIT).contains("The Docker engine does not answer"),
                        "the error frame says why");
            }
            await(
                    () -> !given().get("/api/system").<Boolean>path("docker.reachable"),
                    "the status says the engine is down");
            try (TestSocket whileDown = terminal(labId, cookie)) {
                assertEquals(SocketCloseCodes.ENGINE_UNAVAILABLE, whileDown.awaitClose(WAIT), "a new terminal too");
            }

            PrivateEngineProfile.DOCKERD.start();
            await(() -> given().get("/api/system").<Boolean>path("docker.reachable"), "the status says it is back");
            Thread.sleep(2000); // two cull rounds, which fail a lab whose containers died
            assertEquals(
                    "running",
                    given().cookie(LearnerIds.COOKIE, cookie)
                            .get("/api/labs/" + labId)
                            .path("status"),
                    "the lab survived the engine's restart");

            try (TestSocket terminal = terminal(labId, cookie)) {
                terminal.sendBinary("echo after-$((40+2))\r");
                terminal.awaitOutput(out -> out.contains("after-42"), WAIT);
            }
            ExecResult shape = runtime.exec(
                    labId,
                    "client",
                    List.of(
                            "tc", "qdisc", "add", "dev", "eth1", "root", "tbf", "rate", "10mbit", "burst", "32kb",
                            "latency", "100ms"),
                    Duration.ofSeconds(10));
            assertTrue(shape.ok(), shape.stderr());
            CheckResult check = checks.run(
                    labId, "after-restart", CheckSpecParser.parse("it.md", """
                    measure:
                      - { name: q, node: client, qdisc: { dev: eth1 } }
                    expect:
                      - { value: q.root.kind, equals: tbf }
                    """, 1), BaselineSteps.UNKNOWN, p -> {});
            assertEquals(CheckResult.Status.PASSED, check.status(), check.message());
        } finally {
            TestLabs.stop(labId, cookie);
        }
    }

    private TestSocket terminal(String labId, String cookie) throws Exception {
        return TestSocket.terminal(base, labId, "client", cookie);
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + ": not within " + WAIT);
            }
            Thread.sleep(200);
        }
    }
}
