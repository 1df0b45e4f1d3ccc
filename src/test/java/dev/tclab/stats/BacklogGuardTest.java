package dev.tclab.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tclab.lab.FakeRuntimeProfile;
import dev.tclab.runtime.ExecResult;
import dev.tclab.web.FakeLearnerLabTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The kernel-memory ceiling on a lab's queues, above the runtime seam: which queue goes, and who is told. */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class BacklogGuardTest extends FakeLearnerLabTest {

    private static final long MIB = 1 << 20;

    @Inject
    BacklogGuard guard;

    BacklogGuardTest() {
        super("ws-test");
    }

    @Test
    void shouldRemoveTheBiggestQueueOfTheLabOnceItsTotalPassesTheCeiling() throws Exception {
        List<StatsFrames.BacklogReset> told = new CopyOnWriteArrayList<>();
        guard.report(labId, "client", Map.of("eth1", 20 * MIB), told::add);
        guard.report(labId, "server", Map.of("eth1", 10 * MIB, "ifb0", 2 * MIB), told::add);
        Thread.sleep(200);
        assertThat(runtime.execLog).as("32 MiB is allowed").noneMatch(c -> c.contains("qdisc del"));

        guard.report(labId, "server", Map.of("eth1", 10 * MIB, "ifb0", 3 * MIB), told::add);
        awaitExec("client: tc qdisc del dev eth1 root");
        awaitTrue(() -> told.size() == 1);
        StatsFrames.BacklogReset reset = told.get(0);
        assertEquals("client", reset.node());
        assertEquals(20 * MIB, reset.backlogBytes());
        assertEquals(32 * MIB, reset.ceilingBytes());
        assertThat(reset.message()).contains("tclab removed that root qdisc");
    }

    @Test
    void shouldLookAtALabNobodyWatchesOnItsOwn() throws Exception {
        String full = "[{\"kind\":\"tbf\",\"handle\":\"8001:\",\"dev\":\"eth1\",\"root\":true,\"options\":{},"
                + "\"bytes\":1,\"packets\":1,\"drops\":0,\"overlimits\":0,\"requeues\":0,\"backlog\":" + 40 * MIB
                + ",\"qlen\":28000}]";
        runtime.execHandler = (node, command) -> command.equals("tc -s -j qdisc show") && node.equals("server")
                ? new ExecResult(0, full, "", false)
                : new ExecResult(0, "[]", "", false);
        guard.sweepUnwatched();
        awaitExec("server: tc qdisc del dev eth1 root");
    }

    private void awaitExec(String command) throws InterruptedException {
        awaitTrue(() -> runtime.execLog.contains(command));
    }

    private static void awaitTrue(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 5 s");
            }
            Thread.sleep(20);
        }
    }
}
