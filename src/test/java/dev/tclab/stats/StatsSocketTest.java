package dev.tclab.stats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.http.SocketCloseCodes;
import dev.tclab.lab.FakeRuntimeProfile;
import dev.tclab.learner.LearnerIds;
import dev.tclab.web.FakeLearnerLabTest;
import dev.tclab.web.NeverReadingSocket;
import dev.tclab.web.TestSocket;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.net.http.WebSocketHandshakeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/** The statistics socket takes no messages: text or binary, each gets the error frame docs/api.md promises. */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class StatsSocketTest extends FakeLearnerLabTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Inject
    StatsHub hub;

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

    @Test
    void shouldRefuseALearnersOpensPastTheLimitBeforeTheHandshake() throws Exception {
        // Issue 25, row 2: each of 6,000 opens from one cookie cost a handshake, a worker and a close. Past 60 opens a
        // minute (tclab.sockets.opens-per-learner) the handshake is refused, 429 with Retry-After, before it upgrades.
        for (int i = 0; i < 60; i++) {
            openStats(cookie).close();
        }
        ExecutionException refused =
                org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class, () -> openStats(cookie));
        assertThat(refused.getCause()).isInstanceOf(WebSocketHandshakeException.class);
        HttpResponse<?> answer = ((WebSocketHandshakeException) refused.getCause()).getResponse();
        assertThat(answer.statusCode()).isEqualTo(429);
        assertThat(answer.headers().firstValueAsLong("Retry-After").orElse(0)).isBetween(1L, 60L);
        // Another learner is not held back by this one: the handshake is made, and only then is this lab refused.
        String other = learnerIds.sign(learnerIds.newId());
        try (TestSocket socket = TestSocket.stats(base, labId, other)) {
            assertThat(socket.awaitClose(WAIT)).isEqualTo(SocketCloseCodes.LAB_NOT_FOUND);
        }
    }

    /**
     * A statistics socket of the learner, once the server has opened it (it answers a message after its open; the
     * lab's recent past and samples may come first).
     */
    private TestSocket openedStats() throws Exception {
        TestSocket socket = openStats(cookie);
        socket.sendText("still here?");
        long deadline = System.nanoTime() + WAIT.toNanos();
        String frame;
        do {
            frame = socket.nextText(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
        } while (!frame.contains("takes no messages"));
        return socket;
    }

    @Test
    void shouldStopFeedingASocketTakenOverAtOnceThoughItNeverAnswersTheClose() throws Exception {
        // A script that never reads never answers the close either, and the server waits 10 s for that answer
        // before the socket counts as closed. Until then the socket taken over stayed a viewer of the lab's samplers:
        // FloodBenchmark's 6,000 sockets left thousands per sampler, each added and removed by copying.
        // This lab's samplers only: other classes' labs may still be stopping theirs in this app.
        int before = hub.samplerCount(labId);
        try (Socket silent =
                NeverReadingSocket.open(base, "/ws/labs/" + labId + "/stats", LearnerIds.COOKIE + "=" + cookie)) {
            awaitSamplers(count -> count > before, "the silent socket's samplers start");
            // Four newer pages (four per learner): the fourth takes the silent socket's place. Each is answered
            // before the next opens: the server opens a socket after its handshake, on a worker thread, so a page
            // closed at once could be gone before the next one's open, and four pages would never be live at once
            // (a loaded machine ran it so, and the silent socket was never taken over). Then they close properly.
            List<TestSocket> pages = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                pages.add(openedStats());
            }
            pages.forEach(TestSocket::close);
            // Within 9 s, below the 10 s the server waits for a close to be answered (a loaded machine took over 3 s,
            // and over 7 s beside a User-Mode Linux lab's measurements in the other fork).
            awaitSamplers(count -> count == before, "the samplers stop with their last live page");
        }
    }

    private void awaitSamplers(java.util.function.IntPredicate condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(9).toNanos();
        while (!condition.test(hub.samplerCount(labId))) {
            assertThat(System.nanoTime())
                    .as(what + " (the lab's samplers now: " + hub.samplerCount(labId) + ")")
                    .isLessThan(deadline);
            Thread.sleep(20);
        }
    }
}
