package dev.tclab.stats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.lab.FakeRuntimeProfile;
import dev.tclab.web.FakeLearnerLabTest;
import dev.tclab.web.TestSocket;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A lab's probes run while its statistics socket is open, once however many pages watch, and stop with the last. */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class ProbeSocketTest extends FakeLearnerLabTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Inject
    ProbeHub probes;

    ProbeSocketTest() {
        super("probe-test");
    }

    private void awaitProbes(int count) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (probes.probeCount() != count && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(probes.probeCount()).isEqualTo(count);
    }

    @Test
    void shouldRunTheLabsProbeOnceWhileItsStatisticsAreWatched() throws Exception {
        int before = probes.probeCount();
        try (TestSocket first = openStats(cookie)) {
            awaitProbes(before + 1);
            try (TestSocket second = openStats(cookie)) {
                Thread.sleep(300);
                assertThat(probes.probeCount()).as("shared by both pages").isEqualTo(before + 1);
            }
            Thread.sleep(300);
            assertThat(probes.probeCount())
                    .as("still watched by the first page")
                    .isEqualTo(before + 1);
        }
        awaitProbes(before);
    }
}
