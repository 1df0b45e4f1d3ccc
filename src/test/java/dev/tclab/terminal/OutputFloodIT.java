package dev.tclab.terminal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.learner.LearnerIds;
import dev.tclab.testing.RunsAlone;
import dev.tclab.web.TestLabs;
import dev.tclab.web.TestSocket;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 43, row 6: a node's terminal floods output ({@code base64 /dev/urandom}) while the page reads it. Before, on
 * a UML lab, a command in the other node's terminal took 12-17 s and the flooding terminal's prompt came back 91 s
 * after Ctrl-C. The flood must cost the other node nothing a learner sees (its command answers within 1 s, three
 * times), and Ctrl-C must bring the prompt back without the flood's backlog ahead of it. The page here takes a frame
 * every 3 ms (about 270 KB/s), far slower than Chromium draws (LabPageBrowserIT).
 *
 * <p>The prompt's time is logged, not held to the 2 s: alone it comes in 0.1-0.4 s, beside a busy host 1-2 s,
 * and once 3.1 s in a whole CI run with the other lane busy (docs/SECURITY.md). The bound here is the regression it
 * guards against: with the backlog queued, the prompt came after 45 s on UML and never within 60 s on Docker.
 */
@QuarkusTest
@RunsAlone(RunsAlone.Group.MEASUREMENTS)
class OutputFloodIT {

    private static final Logger LOG = Logger.getLogger(OutputFloodIT.class);
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** Far above what a loaded CI host measured (3.1 s), far below the backlog's 45 s and more. */
    private static final double PROMPT_BOUND_SECONDS = 10.0;

    @TestHTTPResource("/")
    URI base;

    @Inject
    LearnerIds learnerIds;

    @ParameterizedTest
    @ValueSource(strings = {"ws-test", "uml-test"})
    void shouldKeepTheOtherNodeAnsweringAndStopAtCtrlCWhileANodeFloodsItsTerminal(String lesson) throws Exception {
        String cookie = learnerIds.sign(learnerIds.newId());
        String lab = TestLabs.startAndAwait(lesson, cookie, Duration.ofSeconds(120));
        try (TestSocket flooding =
                        TestSocket.terminalReadingSlowly(base, lab, "client", cookie, 64 * 1024, Duration.ofMillis(3));
                TestSocket other = TestSocket.terminal(base, lab, "server", cookie)) {
            flooding.awaitOutput(out -> out.contains("@client"), WAIT);
            other.awaitOutput(out -> out.contains("@server"), WAIT);
            flooding.sendBinary("base64 /dev/urandom\r");
            long floodFrom = System.nanoTime();
            while (flooding.receivedBytes() < 1_000_000) {
                assertThat(System.nanoTime() - floodFrom)
                        .as("a megabyte of the flood within " + WAIT)
                        .isLessThan(WAIT.toNanos());
                Thread.sleep(50);
            }

            List<Double> answers = new ArrayList<>();
            for (int k = 1; k <= 3; k++) {
                String marker = "answer-" + k + "-";
                long sent = System.nanoTime();
                other.sendBinary("echo " + marker + "$((6*7))\r");
                other.awaitOutput(out -> out.contains(marker + "42"), WAIT);
                answers.add((System.nanoTime() - sent) / 1e9);
                Thread.sleep(500);
            }

            long before = flooding.receivedBytes();
            double pageRate = before / ((System.nanoTime() - floodFrom) / 1e9);
            long interrupted = System.nanoTime();
            flooding.sendBinary(new byte[] {3});
            flooding.sendBinary("echo back-$((6*7))\r");
            flooding.awaitOutput(out -> out.contains("back-42"), WAIT);
            double prompt = (System.nanoTime() - interrupted) / 1e9;
            LOG.infof(
                    "%s output flood: %d MB reached the page (%.0f KB/s); the other node answered after %s s; the"
                            + " prompt came back %.2f s after Ctrl-C, %d KiB later",
                    lesson,
                    flooding.receivedBytes() >> 20,
                    pageRate / 1000,
                    answers,
                    prompt,
                    (flooding.receivedBytes() - before) >> 10);
            assertThat(answers).as("the other node's answers, s").allMatch(seconds -> seconds <= 1.0);
            assertThat(prompt).as("the prompt after Ctrl-C, s").isLessThanOrEqualTo(PROMPT_BOUND_SECONDS);
        } finally {
            TestLabs.stop(lab, cookie);
        }
    }
}
