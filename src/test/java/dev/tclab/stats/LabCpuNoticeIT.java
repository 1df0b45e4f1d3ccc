package dev.tclab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.cpu.CpuUse;
import dev.tclab.cpu.HostCpu;
import dev.tclab.testing.RunsAlone;
import dev.tclab.web.LearnerLabTest;
import dev.tclab.web.TestSocket;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Issue 44: a lab that holds a node's CPU at its limit for over a minute outside a check is told so on its page, in
 * words, and told again when it stops. The busy loop is typed into the node's terminal as a learner types it; the
 * notice arrives on the statistics socket the page reads, from the node's real control group.
 */
@QuarkusTest
@TestProfile(QuarterCoreNodesProfile.class)
// Exclusive: its busy loop keeps a node at its limit for over a minute, which would skew another class's figures.
@RunsAlone(RunsAlone.Group.MEASUREMENTS)
class LabCpuNoticeIT extends LearnerLabTest {

    private final ObjectMapper json = new ObjectMapper();

    @Inject
    HostCpu hostCpu;

    LabCpuNoticeIT() {
        super("ws-test", Duration.ofSeconds(90));
    }

    @Test
    void shouldTellThePageWhenANodeHoldsItsCpuAtItsLimitForAMinuteAndWhenItStops() throws Exception {
        try (TestSocket terminal = openTerminal("client", cookie);
                TestSocket stats = openStats(cookie)) {
            terminal.awaitOutput(o -> o.contains("#"), Duration.ofSeconds(20));
            terminal.sendBinary("while :; do :; done\r");
            long typed = System.nanoTime();

            JsonNode told = nextCpuFrame(stats, Duration.ofSeconds(100));
            double waited = (System.nanoTime() - typed) / 1e9;
            String message = told.path("message").asText();
            System.out.printf("told after %.0f s: %s%n", waited, message);
            assertTrue(waited >= 55, "not before a minute at the limit: " + waited + " s");
            assertTrue(
                    message.startsWith(
                            "client has used nearly all the CPU it may (0.25 cores) for over a minute, outside"
                                    + " any check"),
                    message);
            assertTrue(message.contains("Run top in its terminal"), message);
            CpuUse use = hostCpu.latest().orElseThrow();
            assertTrue(use.labCores() >= 0.2, "the labs' CPU read from their groups: " + use);

            terminal.sendBinary("\u0003"); // Ctrl-C ends the loop
            JsonNode cleared = nextCpuFrame(stats, Duration.ofSeconds(20));
            while (!cleared.path("message").isNull()) {
                cleared = nextCpuFrame(stats, Duration.ofSeconds(20));
            }
            assertEquals("client", cleared.path("node").asText(), "the page clears the notice it showed");
        }
    }

    /** The next {@code cpu} frame on the statistics socket, skipping samples. */
    private JsonNode nextCpuFrame(TestSocket stats, Duration within) throws Exception {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            String text = stats.pollText(Duration.ofSeconds(5));
            if (text == null) {
                continue;
            }
            JsonNode frame = json.readTree(text);
            if ("cpu".equals(frame.path("type").asText())) {
                return frame;
            }
        }
        throw new AssertionError("no cpu frame within " + within);
    }
}
