package dev.tclab.terminal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tclab.http.SocketCloseCodes;
import dev.tclab.lab.RetainedHeap;
import dev.tclab.learner.LearnerIds;
import dev.tclab.web.FloodSocket;
import dev.tclab.web.TestLabs;
import dev.tclab.web.TestSocket;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 43, row 1, on a real lab: a script that floods a terminal socket from the moment it opens, as fast as TCP
 * takes it, and never answers the close. The server reads at most a budget ahead of what the terminal took, so the
 * flood waits in TCP, not in the server's heap; the drops are counted as the frames arrive and the socket is closed
 * with 4413, after which nothing more is read. On main before this, the server read on after its close (for the 10 s
 * Vert.x waits for the client's close), and everything sent while a callback ran queued inside websockets-next.
 * No lock (docs/testing.md): the flood the server lets through is about 30 MB, as TerminalDockerIT's, and nothing
 * here is a rate or a latency.
 */
@QuarkusTest
class TerminalInputFloodIT {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final long FLOOD_BYTES = 256L << 20;

    @TestHTTPResource("/")
    URI base;

    @Inject
    LearnerIds learnerIds;

    private String cookie;
    private String labId;

    @AfterEach
    void stopLab() {
        if (labId != null) {
            TestLabs.stop(base, labId, cookie);
        }
    }

    @Test
    void shouldReadAFloodOnlyABudgetAheadOfTheShellAndStopReadingItOnceClosed() throws Exception {
        cookie = learnerIds.sign(learnerIds.newId());
        labId = TestLabs.startAndAwait("ws-test", cookie, Duration.ofSeconds(90));
        try (TestSocket page = TestSocket.terminal(base, labId, "client", cookie)) {
            page.awaitOutput(out -> out.contains("@client"), WAIT);
            page.sendBinary("stty -icanon; sleep 999\r"); // the shell stops reading; it is kept after the page closes
            Thread.sleep(500);
        }
        long before = RetainedHeap.bytes();
        long start = System.nanoTime();
        long accepted;
        Integer code;
        String output;
        try (FloodSocket flood = FloodSocket.terminal(base, labId, "client", LearnerIds.COOKIE + "=" + cookie)) {
            flood.startFlood(FLOOD_BYTES, 65_000);
            code = flood.awaitClose(WAIT);
            accepted = flood.awaitWrittenStill(Duration.ofSeconds(2), WAIT);
            output = flood.output();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long retained = RetainedHeap.bytes() - before;
        System.out.printf(
                "terminal flood from the open: the server took %d MB in %.1f s (of %d MB sent as fast as TCP took"
                        + " it), closed %s; retained heap %+d MiB%n",
                accepted / 1_000_000, seconds, FLOOD_BYTES / 1_000_000, code, RetainedHeap.mib(retained));
        assertEquals(SocketCloseCodes.FLOODING, code, "the flooding socket is closed with 4413");
        assertTrue(output.contains("[tclab: input dropped"), "the learner is told input is dropped: " + output);
        // 16 MiB dropped, the shell's 1 MiB queue, 1 MiB in flight, Vert.x's 16 frames and the kernel's buffers on
        // loopback (a few MiB each way): about 30 MB.
        assertTrue(
                accepted < 64L << 20,
                "the server read no more than a budget ahead, and nothing after its close: it took " + accepted);
        assertTrue(retained < 32L << 20, "retained heap below 32 MiB: " + retained);
    }
}
