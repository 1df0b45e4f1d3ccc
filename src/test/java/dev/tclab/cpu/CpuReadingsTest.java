package dev.tclab.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tclab.runtime.CpuTimes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The host's CPU use from successive readings, and the page's word on a node that holds its CPU at its limit. */
class CpuReadingsTest {

    private static final long SECOND = 1_000_000_000L;

    private final List<CpuUse> uses = new ArrayList<>();
    private final List<LabCpuNotice> notices = new ArrayList<>();
    private final CpuReadings readings = new CpuReadings(uses::add, notices::add);

    /** A reading at {@code second}, the host busy {@code busy} core-seconds so far, with these containers. */
    private static CpuTimes at(long second, double busy, double platform, CpuTimes.Container... containers) {
        return new CpuTimes(
                second * SECOND,
                2,
                (long) (busy * SECOND),
                Map.of(1L, (long) (platform * SECOND)),
                List.of(containers));
    }

    private static CpuTimes.Container node(String lab, String node, double used, boolean measuring) {
        return new CpuTimes.Container(lab, node, true, 1.0, (long) (used * SECOND), measuring);
    }

    private static CpuTimes.Container sidecar(String lab, String node, double used) {
        return new CpuTimes.Container(lab, node, false, 1.0, (long) (used * SECOND), false);
    }

    @Test
    void shouldSplitTheHostsCpuIntoLabsPlatformAndOtherWork() {
        readings.take(at(0, 100, 10, node("l1", "client", 5, false), sidecar("l1", "client", 1)));
        readings.take(at(2, 103.6, 10.4, node("l1", "client", 6, false), sidecar("l1", "client", 1.2)));

        CpuUse use = uses.get(uses.size() - 1);
        assertEquals(1.8, use.busyCores(), 1e-9);
        assertEquals(0.6, use.labCores(), 1e-9, "both the node and its sidecar are the lab's");
        assertEquals(0.2, use.platformCores(), 1e-9);
        assertEquals(1.0, use.otherCores(), 1e-9);
        assertEquals(0.5, use.leftToLabs(), 1e-9);
    }

    @Test
    void shouldLeaveAllTheHostToTheLabsWhileOtherWorkIsNoise() {
        assertEquals(1.0, new CpuUse(2, 1.5, 1.0, 0.1).leftToLabs(), 1e-9, "0.4 core of other work is noise");
        assertEquals(0.625, new CpuUse(2, 1.5, 0.5, 0.25).leftToLabs(), 1e-9, "three quarters of a core is not");
    }

    @Test
    void shouldNotTakeAnEndedPlatformProcessesTimeForOtherWork() {
        // The shim of a lab that stopped had used 50 core-seconds; it is gone from the second reading.
        readings.take(new CpuTimes(0, 2, 0, Map.of(1L, 5 * SECOND, 2L, 50 * SECOND), List.of()));
        readings.take(new CpuTimes(2 * SECOND, 2, SECOND, Map.of(1L, 6 * SECOND, 3L, SECOND / 2), List.of()));

        CpuUse use = uses.get(0);
        assertEquals(0.75, use.platformCores(), 1e-9, "the app's second and the new shim's half, over 2 s");
        assertEquals(0.0, use.otherCores(), 1e-9);
    }

    @Test
    void shouldGiveTheSlotsBackWhenTheHostCanNoLongerBeRead() {
        readings.take(at(0, 0, 0));
        readings.take(at(2, 4, 0));
        assertEquals(0.0, uses.get(0).leftToLabs(), 1e-9);

        readings.unread();
        assertTrue(readings.latest().isEmpty());
        assertEquals(1.0, uses.get(1).leftToLabs(), 1e-9, "admitted by cost alone");
        readings.unread();
        assertEquals(2, uses.size(), "said once");
        readings.take(at(10, 4, 0));
        assertEquals(2, uses.size(), "a first reading again: no use until a second");
    }

    @Test
    void shouldCountALabThatStartedBetweenReadingsWithAllItUsed() {
        readings.take(at(0, 100, 0));
        readings.take(at(2, 102, 0, node("l1", "client", 1.5, false)));

        assertEquals(0.75, uses.get(0).labCores(), 1e-9);
        assertEquals(0.25, uses.get(0).otherCores(), 1e-9);
    }

    @Test
    void shouldAverageOverTheLastSixSeconds() {
        readings.take(at(0, 0, 0));
        readings.take(at(2, 4, 0)); // 2 cores busy
        readings.take(at(4, 4, 0)); // idle
        readings.take(at(6, 4, 0));
        readings.take(at(8, 4, 0));

        assertEquals(2.0, uses.get(0).otherCores(), 1e-9);
        assertEquals(1.0, uses.get(1).otherCores(), 1e-9, "4 core-seconds over 4 s");
        assertEquals(4.0 / 6, uses.get(2).otherCores(), 1e-9, "over 6 s");
        assertEquals(0.0, uses.get(3).otherCores(), 1e-9, "the busy seconds left the window");
    }

    @Test
    void shouldTellAPageOnlyAfterANodeHeldItsLimitForAMinuteThenSayWhenItStops() {
        double used = 0;
        for (int s = 0; s <= 58; s += 2) {
            readings.take(at(s, 2 * s, 0, node("l1", "client", used, false), node("l1", "server", 0, false)));
            used += 1.9;
        }
        assertTrue(notices.isEmpty(), "busy since second 0: not a minute yet");
        readings.take(at(60, 120, 0, node("l1", "client", used, false), node("l1", "server", 0, false)));
        used += 1.9;
        assertEquals(1, notices.size(), "told once the minute is over: " + notices);
        LabCpuNotice told = notices.get(0);
        assertEquals("l1", told.labId());
        assertEquals("client", told.node());
        assertTrue(
                told.text().startsWith("client has used nearly all the CPU it may (1 core) for over a minute"),
                told.text());

        readings.take(at(62, 124, 0, node("l1", "client", used, false), node("l1", "server", 0, false)));
        assertEquals(2, notices.size(), "repeated while it lasts, for pages opened later");

        readings.take(at(64, 126, 0, node("l1", "client", used + 0.2, false), node("l1", "server", 0, false)));
        assertEquals(3, notices.size());
        assertTrue(notices.get(2).cleared(), "it stopped");
        readings.take(at(66, 128, 0, node("l1", "client", used + 0.4, false), node("l1", "server", 0, false)));
        assertEquals(3, notices.size(), "cleared once");
    }

    @Test
    void shouldNotStartTheMinuteAgainForAMomentOfContentionNorTellASpellBelowTheLimit() {
        double used = 0;
        for (int s = 0; s <= 60; s += 2) {
            readings.take(at(s, 2 * s, 0, node("l1", "client", used, false)));
            used += s == 30 ? 1.2 : 1.9; // two seconds at 0.6 of a core: the host was crowded
        }
        assertEquals(1, notices.size(), "the spell went on through the crowded seconds: " + notices);

        CpuReadings other = new CpuReadings(u -> {}, notices::add);
        used = 0;
        for (int s = 0; s <= 80; s += 2) {
            other.take(at(s, 2 * s, 0, node("l2", "client", used, false)));
            used += 1.4; // 0.7 of a core: busy, not at its limit
        }
        assertEquals(1, notices.size(), "nothing about l2");
    }

    @Test
    void shouldNotCountTheSecondsACheckMeasures() {
        double used = 0;
        for (int s = 0; s <= 80; s += 2) {
            boolean measuring = s == 40; // a check in the middle of the minute starts the count again
            readings.take(at(s, 2 * s, 0, node("l1", "client", used, measuring)));
            used += 1.9;
        }
        assertTrue(notices.isEmpty(), "no minute at the limit outside a check: " + notices);
    }

    @Test
    void shouldSpeakOfTheWholeLabWhenItsOwnKernelHoldsEveryNode() {
        double used = 0;
        for (int s = 0; s <= 130; s += 2) {
            readings.take(at(s, 2 * s, 0, node("uml1", null, used, false)));
            used += 1.95;
        }
        LabCpuNotice last = notices.get(notices.size() - 1);
        assertNull(last.node());
        assertTrue(
                last.text().startsWith("This lab has used nearly all the CPU it may (1 core) for 2 minutes"),
                last.text());
        assertTrue(last.text().contains("top in each node's terminal"), last.text());
    }

    @Test
    void shouldNeverTellAboutASidecarOrALabThatEnded() {
        double used = 0;
        for (int s = 0; s <= 70; s += 2) {
            readings.take(at(s, 2 * s, 0, sidecar("l1", "client", used)));
            used += 1.9;
        }
        assertTrue(notices.isEmpty(), "the platform's own measuring container is not the learner's");
    }
}
