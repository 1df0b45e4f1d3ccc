package dev.tclab.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tclab.config.TclabConfig;
import dev.tclab.runtime.topology.Topology;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The per-client limits on lab starts, on a fake clock. */
class StartQuotaTest {

    private static final Topology TOPOLOGY = TestTopologies.load("two-node");

    private Instant now = Instant.parse("2026-12-01T10:00:00Z");
    private int labCount;

    private StartQuota quota(int perAddress, int perLearner, int burst, Duration interval) {
        TclabConfig.Quota limits = new TclabConfig.Quota() {
            @Override
            public int liveLabsPerAddress() {
                return perAddress;
            }

            @Override
            public int liveLabsPerLearner() {
                return perLearner;
            }

            @Override
            public int startBurstPerAddress() {
                return burst;
            }

            @Override
            public Duration startIntervalPerAddress() {
                return interval;
            }
        };
        InstantSource clock = () -> now;
        return new StartQuota(limits, clock);
    }

    private Lab lab(String owner) {
        return new Lab("lab" + labCount++, owner, "lesson" + labCount, Map.of(), TOPOLOGY, now);
    }

    @Test
    void shouldLimitLiveLabsPerLearnerUntilOneEnds() throws Exception {
        StartQuota quota = quota(100, 2, 100, Duration.ofSeconds(1));
        Lab first = lab("ann");
        quota.from("10.0.0.1").admit(first);
        quota.from("10.0.0.2").admit(lab("ann"));
        QuotaExceededException refused = assertThrows(
                QuotaExceededException.class, () -> quota.from("10.0.0.3").admit(lab("ann")));
        assertThat(refused.getMessage()).contains("You already have 2 labs running", "Stop one");
        assertEquals(Optional.empty(), refused.retryAfter());
        quota.from("10.0.0.1").admit(lab("bob"));
        first.stopped("done", now);
        quota.from("10.0.0.1").admit(lab("ann"));
    }

    @Test
    void shouldCountALabAdoptedAfterARestartAgainstItsLearnerAndTheClientItsRecordNames() throws Exception {
        StartQuota quota = quota(1, 1, 100, Duration.ofSeconds(1));
        LabRecord kept = new LabRecord(
                "adopted",
                "ann",
                "tbf",
                Map.of(),
                LabPhase.RUNNING,
                now.minusSeconds(600),
                now.minusSeconds(599),
                now,
                null,
                null,
                2,
                "192.0.2.7");
        Lab adopted = Lab.restored(kept, TOPOLOGY, now);
        quota.onAdopted(new LabAdopted(adopted));
        quota.onAdopted(new LabAdopted(adopted));
        assertThat(assertThrows(
                                QuotaExceededException.class,
                                () -> quota.from("192.0.2.99").admit(lab("ann")))
                        .getMessage())
                .contains("You already have 1 labs running (tbf)");
        assertThat(assertThrows(
                                QuotaExceededException.class,
                                () -> quota.from("192.0.2.7").admit(lab("bob")))
                        .getMessage())
                .contains("1 labs are already running from your network address");
        quota.from("192.0.2.8").admit(lab("bob"));
        adopted.stopped("done", now);
        quota.from("192.0.2.7").admit(lab("ann"));
    }

    @Test
    void shouldCountALabAdoptedWithNoClientAgainstItsLearnerOnly() throws Exception {
        StartQuota quota = quota(1, 1, 100, Duration.ofSeconds(1));
        Lab adopted = Lab.restored(
                new LabRecord("no-client", "ann", "tbf", Map.of(), LabPhase.QUEUED, now, null, now, null, null, 1),
                TOPOLOGY,
                now);
        quota.onAdopted(new LabAdopted(adopted));
        assertThrows(QuotaExceededException.class, () -> quota.from(null).admit(lab("ann")));
        quota.from(null).admit(lab("bob"));
    }

    @Test
    void shouldLimitLiveLabsPerAddressWhateverTheLearner() throws Exception {
        // Row 9: six cookie-less starts (six new learners) from one address took every lab slot.
        StartQuota quota = quota(2, 3, 100, Duration.ofSeconds(1));
        Lab first = lab("l1");
        quota.from("192.0.2.7").admit(first);
        quota.from("192.0.2.7").admit(lab("l2"));
        QuotaExceededException refused = assertThrows(
                QuotaExceededException.class, () -> quota.from("192.0.2.7").admit(lab("l3")));
        assertThat(refused.getMessage())
                .contains("2 labs are already running from your network address", "tclab.quota.live-labs-per-address");
        quota.from("192.0.2.8").admit(lab("l4"));
        first.failed("could not start", now);
        quota.from("192.0.2.7").admit(lab("l5"));
    }

    @Test
    void shouldCountAllAddressesOfAnIpv6Slash64AsOneClient() throws Exception {
        StartQuota quota = quota(1, 3, 100, Duration.ofSeconds(1));
        quota.from("2001:db8:1:2::1").admit(lab("a"));
        assertThrows(
                QuotaExceededException.class,
                () -> quota.from("2001:db8:1:2:ffff::9").admit(lab("b")));
        quota.from("2001:db8:1:3::1").admit(lab("c"));
    }

    @Test
    void shouldRefillStartsAtTheConfiguredRateAndSayHowLongToWait() throws Exception {
        StartQuota quota = quota(100, 100, 3, Duration.ofSeconds(10));
        for (int i = 0; i < 3; i++) {
            quota.from("192.0.2.7").admit(lab("l" + i));
        }
        QuotaExceededException refused = assertThrows(
                QuotaExceededException.class, () -> quota.from("192.0.2.7").admit(lab("x")));
        assertEquals(Optional.of(Duration.ofSeconds(10)), refused.retryAfter());
        assertThat(refused.getMessage()).contains("Wait 10 s");
        quota.from("192.0.2.8").admit(lab("other address"));
        now = now.plusSeconds(4);
        refused = assertThrows(
                QuotaExceededException.class, () -> quota.from("192.0.2.7").admit(lab("x")));
        assertEquals(Optional.of(Duration.ofSeconds(6)), refused.retryAfter());
        now = now.plusSeconds(6);
        quota.from("192.0.2.7").admit(lab("refilled"));
        assertThrows(QuotaExceededException.class, () -> quota.from("192.0.2.7").admit(lab("x")));
    }
}
