package dev.tclab.stats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.lab.FakeRuntimeProfile;
import dev.tclab.web.FakeLearnerLabTest;
import dev.tclab.web.TestSocket;
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

    @Test
    void shouldLetTheNewestOfALearnersStatisticsSocketsWinAtTheLimit() throws Exception {
        // Issue 25, row 2: 6,000 statistics sockets of one learner were all accepted; now a fifth closes the first.
        // The server opens each socket on a worker thread: each one's answer before the next is opened fixes which
        // is the oldest (a loaded machine can run the opens out of order otherwise).
        try (TestSocket first = openedStats();
                TestSocket second = openedStats();
                TestSocket third = openedStats();
                TestSocket fourth = openedStats()) {
            try (TestSocket fifth = openStats(cookie)) {
                assertThat(first.awaitClose(WAIT)).isEqualTo(4409);
                fifth.sendText("hello");
                assertThat(fifth.nextText(WAIT)).contains("takes no messages");
            }
        }
    }

    /** A statistics socket of the learner, once the server has opened it (it answers a message after its open). */
    private TestSocket openedStats() throws Exception {
        TestSocket socket = openStats(cookie);
        socket.sendText("still here?");
        assertThat(socket.nextText(WAIT)).contains("takes no messages");
        return socket;
    }
}
