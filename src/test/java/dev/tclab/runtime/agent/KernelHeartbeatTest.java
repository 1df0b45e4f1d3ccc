package dev.tclab.runtime.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class KernelHeartbeatTest {

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-12-07T04:00:00Z"));
    private final KernelHeartbeat heartbeat = new KernelHeartbeat(now::get);

    /** A fake agent: answers every ping while {@code answering}. */
    private static final class Agent implements KernelHeartbeat.Pulse {
        boolean answering = true;
        long heard;
        int pings;

        @Override
        public long heard() {
            return heard;
        }

        @Override
        public void ping() {
            pings++;
            if (answering) {
                heard++;
            }
        }
    }

    private void after(Duration elapsed) {
        now.updateAndGet(at -> at.plus(elapsed));
    }

    @Test
    void shouldKeepALabWhoseAgentAnswersEveryPing() {
        Agent agent = new Agent();
        for (int beat = 0; beat < 20; beat++) {
            assertThat(heartbeat.beat(Map.of("lab", agent))).isEmpty();
            after(Duration.ofSeconds(3));
        }
        assertThat(agent.pings).isEqualTo(20);
    }

    @Test
    void shouldCallALabSilentTenSecondsAfterItsAgentLastSaidAnything() {
        Agent agent = new Agent();
        heartbeat.beat(Map.of("lab", agent));
        agent.answering = false;
        after(Duration.ofSeconds(3));
        heartbeat.beat(Map.of("lab", agent)); // the last answer arrived by now: silent from here
        after(Duration.ofSeconds(9));
        assertThat(heartbeat.beat(Map.of("lab", agent)))
                .as("9 s without a word")
                .isEmpty();
        after(Duration.ofSeconds(1));
        assertThat(heartbeat.beat(Map.of("lab", agent)))
                .as("10 s without a word")
                .containsExactly("lab");
    }

    @Test
    void shouldCountANewLabsSilenceFromTheFirstBeatThatMetIt() {
        Agent silent = new Agent();
        silent.answering = false;
        Agent other = new Agent();
        heartbeat.beat(Map.of("other", other));
        after(Duration.ofSeconds(30));
        assertThat(heartbeat.beat(Map.of("other", other, "new", silent))).isEmpty();
        after(Duration.ofSeconds(10));
        assertThat(heartbeat.beat(Map.of("other", other, "new", silent))).containsExactly("new");
    }

    @Test
    void shouldForgetALabItNoLongerHearsAndGiveItTimeAgainIfItComesBack() {
        Agent agent = new Agent();
        agent.answering = false;
        heartbeat.beat(Map.of("lab", agent));
        after(Duration.ofSeconds(8));
        heartbeat.beat(Map.of());
        after(Duration.ofSeconds(8));
        assertThat(heartbeat.beat(Map.of("lab", agent)))
                .as("met again: its silence starts now")
                .isEmpty();
    }

    @Test
    void shouldGiveANewAgentOfTheLabItsOwnTime() {
        Agent old = new Agent();
        old.answering = false;
        heartbeat.beat(Map.of("lab", old));
        after(Duration.ofSeconds(9));
        Agent attachedAgain = new Agent();
        attachedAgain.answering = false;
        assertThat(heartbeat.beat(Map.of("lab", attachedAgain))).isEmpty();
        after(Duration.ofSeconds(9));
        assertThat(heartbeat.beat(Map.of("lab", attachedAgain))).isEmpty();
        after(Duration.ofSeconds(1));
        assertThat(heartbeat.beat(Map.of("lab", attachedAgain))).containsExactly("lab");
    }

    @Test
    void shouldNotPingALabItCallsSilent() {
        Agent agent = new Agent();
        agent.answering = false;
        heartbeat.beat(Map.of("lab", agent));
        after(Duration.ofSeconds(10));
        assertThat(heartbeat.beat(Map.of("lab", agent))).containsExactly("lab");
        assertThat(agent.pings).isEqualTo(1);
    }
}
