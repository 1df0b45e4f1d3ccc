package dev.tclab.cpu;

import dev.tclab.runtime.CpuTimes;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Turns successive {@link CpuTimes} into the host's {@link CpuUse} over the last {@link #WINDOW}, and tells a lab's
 * page when one of its nodes has used nearly all the CPU it may for over {@link #HELD} outside a check ({@link LabCpuNotice},
 * repeated at every reading while it lasts so that a page opened later learns it too, and once more, cleared, when it
 * ends).
 */
final class CpuReadings {

    /** The use is averaged over this long: a measurement lasts seconds, and one busy reading must not close the door. */
    static final Duration WINDOW = Duration.ofSeconds(6);
    /** How long a node must hold its CPU at its limit before its page is told. */
    static final Duration HELD = Duration.ofMinutes(1);
    /**
     * A node that used this share of its limit or more since it became busy holds its CPU at its limit (the engine's
     * quota lets a busy loop reach about 0.98; on a crowded host it gets less, and still wants all it may have).
     */
    static final double AT_LIMIT = 0.8;
    /** A reading below this share of its limit ends a busy spell: whatever was busy stopped. */
    static final double CALM = 0.5;

    /** A container that runs a learner's processes: one node, or a lab's own kernel (node null). */
    private record Place(String labId, String node) {}

    private final Consumer<CpuUse> uses;
    private final Consumer<LabCpuNotice> notices;
    private final Deque<CpuTimes> readings = new ArrayDeque<>();
    /** Where each place's busy spell began, outside checks: a reading's time and the CPU time it had used then. */
    private final Map<Place, Spell> busySince = new HashMap<>();

    private record Spell(long readNanos, long usedNanos) {}
    /** Places whose page has been told. */
    private final Set<Place> told = new HashSet<>();

    private volatile CpuUse latest;

    CpuReadings(Consumer<CpuUse> uses, Consumer<LabCpuNotice> notices) {
        this.uses = uses;
        this.notices = notices;
    }

    Optional<CpuUse> latest() {
        return Optional.ofNullable(latest);
    }

    /**
     * The host's CPU could not be read (the engine went away, or its labs' groups are not here): what was read before
     * no longer holds, and the slots go back to admitting by cost alone.
     */
    synchronized void unread() {
        readings.clear();
        if (latest != null) {
            latest = null;
            uses.accept(CpuUse.UNREAD);
        }
    }

    synchronized void take(CpuTimes now) {
        CpuTimes previous = readings.peekLast();
        while (!readings.isEmpty() && now.readNanos() - readings.peekFirst().readNanos() > WINDOW.toNanos()) {
            readings.removeFirst();
        }
        CpuTimes oldest = readings.isEmpty() ? previous : readings.peekFirst();
        readings.addLast(now);
        if (oldest == null) {
            return;
        }
        latest = use(oldest, now);
        uses.accept(latest);
        watchLimits(previous, now);
    }

    private static CpuUse use(CpuTimes from, CpuTimes to) {
        double seconds = Math.max(1e-3, (to.readNanos() - from.readNanos()) / 1e9);
        return new CpuUse(
                to.hostCores(),
                (to.hostBusyNanos() - from.hostBusyNanos()) / 1e9 / seconds,
                labNanos(from, to) / 1e9 / seconds,
                platformNanos(from, to) / 1e9 / seconds);
    }

    /**
     * The labs' CPU time between two readings. A container that started since the first counts all it used: it was
     * created after that reading. One gone by the second is not counted (its last seconds are lost).
     */
    private static long labNanos(CpuTimes from, CpuTimes to) {
        Map<ContainerKey, Long> before = new HashMap<>();
        from.containers().forEach(c -> before.put(ContainerKey.of(c), c.usedNanos()));
        long nanos = 0;
        for (CpuTimes.Container c : to.containers()) {
            nanos += Math.max(0, c.usedNanos() - before.getOrDefault(ContainerKey.of(c), 0L));
        }
        return nanos;
    }

    /** As {@link #labNanos}, for the platform's processes: one that ended is not counted, a new one counts whole. */
    private static long platformNanos(CpuTimes from, CpuTimes to) {
        long nanos = 0;
        for (Map.Entry<Long, Long> process : to.platformNanos().entrySet()) {
            nanos += Math.max(0, process.getValue() - from.platformNanos().getOrDefault(process.getKey(), 0L));
        }
        return nanos;
    }

    private record ContainerKey(String labId, String node, boolean learners) {
        static ContainerKey of(CpuTimes.Container c) {
            return new ContainerKey(c.labId(), c.node(), c.learners());
        }
    }

    /**
     * A busy spell begins at the reading before the first one above {@link #CALM}, and ends at a reading below it or
     * while its lab measures. The page is told once the spell lasted {@link #HELD} and used {@link #AT_LIMIT} of the
     * limit over all of it, so a moment of contention on the host neither starts the minute again nor makes a spell.
     */
    private void watchLimits(CpuTimes previous, CpuTimes now) {
        double seconds = (now.readNanos() - previous.readNanos()) / 1e9;
        Map<ContainerKey, Long> before = new HashMap<>();
        previous.containers().forEach(c -> before.put(ContainerKey.of(c), c.usedNanos()));
        Set<Place> present = new HashSet<>();
        for (CpuTimes.Container c : now.containers()) {
            Long was = before.get(ContainerKey.of(c));
            if (!c.learners() || was == null || seconds <= 0) {
                continue;
            }
            Place place = new Place(c.labId(), c.node());
            present.add(place);
            double cores = (c.usedNanos() - was) / 1e9 / seconds;
            if (cores < CALM * c.limitCores() || c.measuring()) {
                busySince.remove(place);
                if (told.remove(place)) {
                    notices.accept(new LabCpuNotice(c.labId(), c.node(), null));
                }
                continue;
            }
            Spell spell = busySince.computeIfAbsent(place, p -> new Spell(previous.readNanos(), was));
            long held = now.readNanos() - spell.readNanos();
            double average = (c.usedNanos() - spell.usedNanos()) / (double) held;
            if (held >= HELD.toNanos() && average >= AT_LIMIT * c.limitCores()) {
                told.add(place);
                notices.accept(new LabCpuNotice(c.labId(), c.node(), text(c, held)));
            }
        }
        // A lab that ended takes its state with it; its page has nothing left to clear.
        busySince.keySet().retainAll(present);
        told.retainAll(present);
    }

    /** What the page says, in the learner's words. */
    static String text(CpuTimes.Container c, long heldNanos) {
        long minutes = Math.max(1, heldNanos / Duration.ofMinutes(1).toNanos());
        String limit = c.limitCores() == 1 ? "1 core" : c.limitCores() + " cores";
        String span = minutes == 1 ? "over a minute" : minutes + " minutes";
        String stop = " Run top in %s to find it, and stop it (kill followed by its PID) unless a step asks for it.";
        return c.node() == null
                ? "This lab has used nearly all the CPU it may (" + limit + ") for " + span
                        + ", outside any check: a process"
                        + " in one of its nodes keeps its kernel busy, and every node and check of the lab shares what"
                        + " is left." + stop.formatted("each node's terminal")
                : c.node() + " has used nearly all the CPU it may (" + limit + ") for " + span
                        + ", outside any check: a" + " process in it keeps it busy, and it answers slowly."
                        + stop.formatted("its terminal");
    }
}
