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

/** The statistics socket takes no messages: text or binary, each gets the error frame docs/api.md promises. */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class StatsSocketTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @TestHTTPResource("/")
    URI base;
    @Inject
    LearnerIds learnerIds;
    @Inject
    FakeLabRuntime runtime;

    private String cookie;
    private String labId;

    @BeforeEach
    void startLab() throws InterruptedException {
        runtime.reset();
        cookie = learnerIds.sign(learnerIds.newId());
        labId = TestLabs.startAndAwait("ws-test", cookie, WAIT);
    }

    @AfterEach
    void stopLab() {
        TestLabs.stop(labId, cookie);
    }

    @Test
    void shouldAnswerABinaryMessageWithAnErrorFrameAndStayOpen() throws Exception {
        try (TestSocket socket = TestSocket.open(base, "/ws/labs/" + labId + "/stats", cookie, TestSocket.originOf(base))) {
            socket.sendBinary(new byte[] {1, 2, 3});
            assertThat(socket.nextText(WAIT)).contains("\"type\":\"error\"").contains("takes no messages");
            socket.sendText("hello");
            assertThat(socket.nextText(WAIT)).contains("\"type\":\"error\"").contains("takes no messages");
        }
    }
}
