package dev.tclab.stats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.lab.FakeLabRuntime;
import dev.tclab.lab.FakeRuntimeProfile;
import dev.tclab.learner.LearnerIds;
import dev.tclab.web.TestLabs;
import dev.tclab.web.TestSocket;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A lab's probes run while its statistics socket is open, once however many pages watch, and stop with the last. */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class ProbeSocketTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @TestHTTPResource("/")
    URI base;
    @Inject
    LearnerIds learnerIds;
    @Inject
    FakeLabRuntime runtime;
    @Inject
    ProbeHub probes;

    private String cookie;
    private String labId;

    @BeforeEach
    void startLab() throws InterruptedException {
        runtime.reset();
        cookie = learnerIds.sign(learnerIds.newId());
        labId = TestLabs.startAndAwait("probe-test", cookie, WAIT);
    }

    @AfterEach
    void stopLab() {
        TestLabs.stop(labId, cookie);
    }

    private TestSocket open() throws Exception {
        return TestSocket.open(base, "/ws/labs/" + labId + "/stats", cookie, TestSocket.originOf(base));
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
        try (TestSocket first = open()) {
            awaitProbes(before + 1);
            try (TestSocket second = open()) {
                Thread.sleep(300);
                assertThat(probes.probeCount()).as("shared by both pages").isEqualTo(before + 1);
            }
            Thread.sleep(300);
            assertThat(probes.probeCount()).as("still watched by the first page").isEqualTo(before + 1);
        }
        awaitProbes(before);
    }
}
