package dev.tclab.terminal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tclab.http.SocketCloseCodes;
import dev.tclab.lab.FakeRuntimeProfile;
import dev.tclab.web.FakeLearnerLabTest;
import dev.tclab.web.TestLabs;
import dev.tclab.web.TestSocket;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/** The terminal socket's protocol and access rules, above the runtime seam (the fake shell echoes its input). */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class TerminalSocketTest extends FakeLearnerLabTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    TerminalSocketTest() {
        super("ws-test");
    }

    @Test
    void shouldCarryBytesBothWaysWithoutBreakingSplitUtf8() throws Exception {
        try (TestSocket socket = openTerminal("client", cookie)) {
            byte[] euro = "€".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            socket.sendBinary("price: ");
            socket.sendBinary(new byte[] {euro[0]});
            socket.sendBinary(new byte[] {euro[1], euro[2]});
            socket.awaitOutput(out -> out.contains("price: €"), WAIT);
        }
    }

    @Test
    void shouldPassResizeToTheShell() throws Exception {
        try (TestSocket socket = openTerminal("client", cookie)) {
            socket.sendText("{\"type\":\"resize\",\"cols\":132,\"rows\":43}");
            socket.awaitOutput(out -> out.contains("resized 132x43"), WAIT);
        }
    }

    @Test
    void shouldRefuseAHandshakeFromAnotherOrigin() {
        String path = "/ws/labs/" + labId + "/nodes/client/terminal";
        assertThrows(
                ExecutionException.class,
                () -> TestSocket.open(base, path, cookie, "http://evil.example:" + base.getPort()));
        assertThrows(ExecutionException.class, () -> TestSocket.open(base, path, cookie, null));
        // Issue 10: userinfo before this server's host and port passed for the same origin.
        assertThrows(
                ExecutionException.class,
                () -> TestSocket.open(base, path, cookie, "http://evil.com@" + base.getHost() + ":" + base.getPort()));
    }

    @Test
    void shouldRefuseAnotherLearnerWithAClearMessage() throws Exception {
        String stranger = learnerIds.sign(learnerIds.newId());
        try (TestSocket socket = openTerminal("client", stranger)) {
            assertTrue(socket.nextText(WAIT).contains("You have no such lab"));
            assertEquals((int) SocketCloseCodes.LAB_NOT_FOUND, socket.awaitClose(WAIT));
        }
        try (TestSocket forged = openTerminal("client", "lforged.c2lnbmF0dXJl")) {
            assertEquals((int) SocketCloseCodes.LAB_NOT_FOUND, forged.awaitClose(WAIT));
        }
    }

    @Test
    void shouldRefuseANodeWithoutTerminal() throws Exception {
        try (TestSocket socket = openTerminal("modem", cookie)) {
            assertTrue(socket.nextText(WAIT).contains("no node 'modem' with a terminal"));
            assertEquals((int) SocketCloseCodes.BAD_REQUEST, socket.awaitClose(WAIT));
        }
    }

    @Test
    void shouldAnswerBadControlMessagesWithoutDisturbingOtherLearners() throws Exception {
        String otherCookie = learnerIds.sign(learnerIds.newId());
        String otherLab = TestLabs.startAndAwait("ws-test", otherCookie, WAIT);
        try (TestSocket mine = openTerminal("client", cookie);
                TestSocket theirs = TestSocket.terminal(base, otherLab, "client", otherCookie)) {
            mine.sendText("{not json");
            assertTrue(mine.nextText(WAIT).contains("not valid JSON"));
            mine.sendText("{\"type\":\"resize\",\"cols\":99999,\"rows\":24}");
            assertTrue(mine.nextText(WAIT).contains("cols"));
            mine.sendBinary("still here");
            mine.awaitOutput(out -> out.contains("still here"), WAIT);

            // Over the 64 KiB cap: the server drops this socket (1009, or 1006 when it cuts the TCP connection),
            // possibly while the frame is still being written, which fails the send itself.
            try {
                mine.sendBinary(new byte[70 * 1024]);
            } catch (java.util.concurrent.CompletionException cutWhileSending) {
                assertTrue(cutWhileSending.getCause() instanceof java.io.IOException, cutWhileSending.toString());
            }
            int code = mine.awaitClose(WAIT);
            assertTrue(code == 1009 || code == 1006, "close code " + code);

            theirs.sendBinary("unaffected");
            theirs.awaitOutput(out -> out.contains("unaffected"), WAIT);
        } finally {
            TestLabs.stop(otherLab, otherCookie);
        }
    }

    @Test
    void shouldRefuseAMessageAbove64KiBInSmallFramesWith1009AndSayWhy() throws Exception {
        try (TestSocket socket = openTerminal("client", cookie)) {
            socket.sendBinary("still here");
            socket.awaitOutput(out -> out.contains("still here"), WAIT);
            socket.sendBinaryInFrames(new byte[100 * 1024], 20 * 1024);
            assertTrue(socket.nextText(WAIT).contains("above 64 KiB was refused"));
            assertEquals(1009, socket.awaitClose(WAIT));
        }
    }

    @Test
    void shouldReplayRecentOutputToAReconnectingPage() throws Exception {
        try (TestSocket first = openTerminal("server", cookie)) {
            assertEquals("{\"type\":\"shell\",\"fresh\":true}", first.nextShellFrame(WAIT));
            first.sendBinary("before the drop");
            first.awaitOutput(out -> out.contains("before the drop"), WAIT);
        }
        try (TestSocket second = openTerminal("server", cookie)) {
            second.awaitOutput(out -> out.contains("before the drop"), WAIT);
            assertEquals(
                    "{\"type\":\"shell\",\"fresh\":false}",
                    second.nextShellFrame(WAIT),
                    "the same shell, so the page says nothing");
        }
    }

    @Test
    void shouldKeepKeysSentBeforeTheShellIsAttached() throws Exception {
        // A page sends what it held (a Run pressed right after "Use it here") the moment its socket opens, while the
        // server's open is still starting the shell: those keys reach the shell, in order, after it.
        runtime.shellStartDelay = Duration.ofMillis(800);
        try (TestSocket socket = openTerminal("server", cookie)) {
            socket.sendBinary("tc qdisc show");
            socket.sendBinary(" dev eth1\r");
            assertEquals("{\"type\":\"shell\",\"fresh\":true}", socket.nextShellFrame(WAIT));
            socket.awaitOutput(out -> out.contains("tc qdisc show dev eth1"), WAIT);
        }
    }

    @Test
    void shouldHandTheShellToTheNewestTab() throws Exception {
        try (TestSocket first = openTerminal("client", cookie)) {
            // Opens run on worker threads: the second tab is only "newer" once the first holds the shell.
            first.nextShellFrame(WAIT);
            try (TestSocket second = openTerminal("client", cookie)) {
                assertTrue(first.nextText(WAIT).contains("another tab"));
                assertEquals((int) SocketCloseCodes.TAKEN_OVER, first.awaitClose(WAIT));
                second.sendBinary("here now");
                second.awaitOutput(out -> out.contains("here now"), WAIT);
            }
        }
    }
}
