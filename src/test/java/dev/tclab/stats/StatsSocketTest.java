package dev.tclab.stats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.lab.FakeRuntimeProfile;
import dev.tclab.web.TestSocket;
import dev.tclab.web.FakeLearnerLabTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The statistics socket takes no messages: text or binary, each gets the error frame docs/api.md promises. */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class StatsSocketTest extends FakeLearnerLabTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    StatsSocketTest() {
        super("ws-test");
    }

    @Test
    void shouldAnswerABinaryMessageWithAnErrorFrameAndStayOpen() throws Exception {
        try (TestSocket socket = openStats(cookie)) {
            socket.sendBinary(new byte[] {1, 2, 3});
            assertThat(socket.nextText(WAIT)).contains("\"type\":\"error\"").contains("takes no messages");
            socket.sendText("hello");
            assertThat(socket.nextText(WAIT)).contains("\"type\":\"error\"").contains("takes no messages");
        }
    }
}
