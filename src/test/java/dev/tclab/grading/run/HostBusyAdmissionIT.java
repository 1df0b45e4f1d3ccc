package dev.tclab.grading.run;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tclab.cpu.CpuUse;
import dev.tclab.cpu.HostCpu;
import dev.tclab.testing.RunsAlone;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 44: check admission counts the host's CPU in use, not only checks in flight. Two busy loops on the host
 * itself, outside every lab (another program on the server), are read from the real /proc and control groups; while
 * they run, a second measurement waits and is told why, and the first still measures (nothing else does).
 */
@QuarkusTest
@TestProfile(CountOtherCpuProfile.class)
// Exclusive: two busy loops on a two-core host would skew another class's figures.
@RunsAlone(RunsAlone.Group.MEASUREMENTS)
class HostBusyAdmissionIT {

    @Inject
    HostCpu hostCpu;

    @Inject
    MeasurementSlots slots;

    private final List<Process> loops = new ArrayList<>();
    private final ExecutorService waiter = Executors.newSingleThreadExecutor();

    @AfterEach
    void stopTheLoops() {
        loops.forEach(Process::destroyForcibly);
        waiter.shutdownNow();
    }

    @Test
    void shouldHoldASecondMeasurementBackWhileOtherWorkTakesTheHostAndSaySo() throws Exception {
        int cores = Runtime.getRuntime().availableProcessors();
        for (int i = 0; i < cores; i++) {
            loops.add(new ProcessBuilder("sh", "-c", "while :; do :; done").start());
        }
        CpuUse busy = awaitUse(use -> use.otherCores() >= 0.6 * cores, "the loops read as other work");
        System.out.println("host CPU with " + cores + " busy loops: " + busy);
        String system =
                RestAssured.get("/api/system").then().statusCode(200).extract().asString();
        assertTrue(system.contains("\"hostCpu\":{\"cores\":" + busy.hostCores()), system);

        try (MeasurementSlots.Slot first = slots.acquire("ann", MeasurementCost.FULL, w -> {})) {
            CompletableFuture<MeasurementSlots.SlotWait> told = new CompletableFuture<>();
            Future<?> second = waiter.submit(() -> {
                try (MeasurementSlots.Slot s =
                        slots.acquire("bob", new MeasurementCost(5, OptionalDouble.empty()), told::complete)) {
                    return null;
                }
            });
            MeasurementSlots.SlotWait wait = told.get(10, TimeUnit.SECONDS);
            System.out.println("bob: waiting for a measurement slot: " + wait.text());
            assertTrue(wait.busyHost().isPresent(), "told that the host is busy");
            assertTrue(wait.text().contains("other work than the labs keeps"), wait.text());
            Thread.sleep(2000);
            assertFalse(second.isDone(), "a 1/20-slot flow waits while other work takes the host");
            first.close();
            second.get(10, TimeUnit.SECONDS);
        }
    }

    private CpuUse awaitUse(Predicate<CpuUse> condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Optional<CpuUse> use = hostCpu.latest();
        while (use.isEmpty() || !condition.test(use.get())) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting until " + what + "; last read: " + use);
            Thread.sleep(500);
            use = hostCpu.latest();
        }
        return use.get();
    }
}
