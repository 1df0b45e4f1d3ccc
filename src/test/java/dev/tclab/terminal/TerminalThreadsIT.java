package dev.tclab.terminal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tclab.lab.OneSlotZeroGraceProfile;
import dev.tclab.web.LearnerLabTest;
import dev.tclab.web.TestSocket;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Closing terminals releases their engine streams and threads (real Docker, grace period 0). */
@QuarkusTest
@TestProfile(OneSlotZeroGraceProfile.class)
class TerminalThreadsIT extends LearnerLabTest {

    private static final int TERMINALS = 200;
    /** One page per node at a time: a second page of the same learner and node would take the shell over. */
    private static final int AT_ONCE = 2;

    private static final int SLACK = 12;

    @Inject
    TerminalSessions sessions;

    TerminalThreadsIT() {
        super("ws-test", Duration.ofSeconds(90));
    }

    @Test
    void shouldReturnToTheSameThreadCountAfterOpeningAndClosing200Terminals() throws Exception {
        ExecutorService pages = Executors.newFixedThreadPool(AT_ONCE);
        try {
            openAndClose(AT_ONCE, pages); // warm up pools and connections
            int before = settledThreadCount(Integer.MAX_VALUE);
            openAndClose(TERMINALS, pages);
            int after = settledThreadCount(before + SLACK);
            assertTrue(after <= before + SLACK, "threads before: " + before + ", after 200 terminals: " + after);
            // The last sockets' closes reach the server just after the pages are done: give them a moment.
            for (int i = 0; i < 50 && sessions.openCount() > 0; i++) {
                Thread.sleep(100);
            }
            assertEquals(0, sessions.openCount(), "every shell ended with its socket");
        } finally {
            pages.shutdownNow();
        }
    }

    /** Opens terminals on both nodes side by side, each until its prompt shows, then closes it. */
    private void openAndClose(int count, ExecutorService pages) throws Exception {
        List<Future<?>> running = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String node = i % 2 == 0 ? "client" : "server";
            running.add(pages.submit(() -> {
                try (TestSocket socket = openTerminal(node, cookie)) {
                    socket.awaitOutput(out -> out.contains("@" + node), Duration.ofSeconds(30));
                }
                return null;
            }));
            if (running.size() == AT_ONCE) {
                for (Future<?> page : running) {
                    page.get();
                }
                running.clear();
            }
        }
        for (Future<?> page : running) {
            page.get();
        }
    }

    /** The thread count once it stops falling (or is at most {@code target}), waiting up to 30 s. */
    private static int settledThreadCount(int target) throws InterruptedException {
        int last = Integer.MAX_VALUE;
        for (int i = 0; i < 60; i++) {
            int now = ManagementFactory.getThreadMXBean().getThreadCount();
            if (now <= target || (now == last && i >= 6)) {
                return now;
            }
            last = now;
            Thread.sleep(500);
        }
        return ManagementFactory.getThreadMXBean().getThreadCount();
    }
}
