package dev.tclab.scheduling;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.scheduler.Scheduler;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Issue 43: a scheduled job survives what it throws, an Error included, and a job that stops running shows on
 * liveness by name. Against the app's real scheduler, with {@link TestTick} (every second).
 */
@QuarkusTest
class ScheduledJobsTest {

    @Inject
    Scheduler scheduler;

    @Inject
    JobRuns runs;

    @Test
    void shouldRunAJobAgainAtItsNextTickAfterItThrewAnError() {
        eventually(() -> assertTrue(TestTick.RUNS.get() > 0, "the job runs"));
        TestTick.ARMED.set(true);
        eventually(() -> assertTrue(!TestTick.ARMED.get(), "the job ran and threw"));
        int afterTheError = TestTick.RUNS.get();
        eventually(() -> assertTrue(TestTick.RUNS.get() > afterTheError, "the job runs again after its Error"));
        assertTrue(runs.jobs().contains("TestTick.tick"), "the job is watched: " + runs.jobs());
        assertTrue(runs.stalled().isEmpty(), "nothing stalled: " + runs.stalled());
        given().get("/q/health/live").then().statusCode(200);
    }

    @Test
    void shouldNameAJobThatStoppedRunningOnLiveness() {
        scheduler.pause(TestTick.IDENTITY);
        try {
            eventually(() -> given().get("/q/health/live")
                    .then()
                    .statusCode(503)
                    .body(containsString("TestTick.tick has not run for"))
                    .body(containsString("restart tclab")));
        } finally {
            scheduler.resume(TestTick.IDENTITY);
        }
        eventually(() -> given().get("/q/health/live").then().statusCode(200));
    }

    /** Runs {@code assertion} every 250 ms until it holds, for 15 s at most; then its last failure is the test's. */
    private static void eventually(Runnable assertion) {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (true) {
            try {
                assertion.run();
                return;
            } catch (AssertionError notYet) {
                if (System.nanoTime() > deadline) {
                    throw notYet;
                }
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
    }
}
