package dev.tclab.grading.run;

import dev.tclab.config.TclabConfig;
import dev.tclab.cpu.CpuUse;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Limits throughput measurements running at once on the host: all labs share its CPUs, so thirty simultaneous
 * iperf3 runs would measure the CPU, not the shaper.
 * <p>
 * Slots go round robin per learner, so one learner's checks cannot keep another's waiting: a free slot goes to the
 * waiting learner holding the fewest slots, among equals to the one whose turn came longest ago (a learner who just
 * got or gave back a slot, or just came, goes to the back of the round); one learner's own requests are served in
 * order. A learner may hold several slots only while nobody else waits. Waiting callers are told their place in
 * line, again whenever it changes.
 * <p>
 * A measurement takes the share of a slot it costs ({@link MeasurementCost}): a flow the platform caps at a low rate
 * takes a small part, an uncapped one a whole slot. Shares come in turn order too: when the next one in line does
 * not fit in what is free, later ones wait behind it, so a line-rate flow is never starved by small ones.
 * <p>
 * Slots are the host's CPUs: when work that is neither a lab's nor the platform's takes some of them
 * ({@link CpuUse#otherCores}, another program on the host), that share of the slots is not given out, and waiters are
 * told why. The labs' own CPU hogs do not count: while a check measures, its lab outweighs them ({@code CpuWeights}).
 * When nothing measures, the next in line always measures, however busy the host.
 */
@ApplicationScoped
public class MeasurementSlots {

    /**
     * Why a caller waits: its place in line (1 = next), and when the host's CPUs are busy with other work, how busy.
     */
    public record SlotWait(int place, Optional<CpuUse> busyHost) {

        /** In the learner's words: {@code 2nd in line} and, when so, why fewer measure at once. */
        public String text() {
            return CheckRunner.ordinal(place) + " in line"
                    + busyHost.map(use -> String.format(
                                    Locale.ROOT,
                                    "; other work than the labs keeps %.1f of the server's %d CPUs busy, so fewer checks"
                                            + " measure at once",
                                    use.otherCores(),
                                    use.hostCores()))
                            .orElse("");
        }
    }

    /** A held slot; closing it frees the slot. */
    public interface Slot extends AutoCloseable {
        @Override
        void close();
    }

    private static final class Ticket {
        private final String learner;
        /** Its share of a slot, in {@link MeasurementCost#PARTS_PER_SLOT}ths. */
        private final int parts;

        private boolean granted;

        private Ticket(String learner, int parts) {
            this.learner = learner;
            this.parts = parts;
        }
    }

    /** A learner that holds or waits for slots. */
    private static final class Learner {
        private int held;
        /** Position in the round: lower goes first among learners holding as many slots. */
        private long turn;

        private final List<Ticket> waiting = new ArrayList<>();

        private Learner(long turn) {
            this.turn = turn;
        }
    }

    private static final Comparator<Learner> NEXT =
            Comparator.<Learner>comparingInt(l -> l.held).thenComparingLong(l -> l.turn);

    private final int size;
    /** The rate of capped flows one slot holds, in bit/s (see {@link MeasurementCost}). */
    private final double slotBitsPerSecond;
    /** Free capacity, in {@link MeasurementCost#PARTS_PER_SLOT}ths of a slot. */
    private int free;
    /** What may be held at once while other work takes some of the host's CPUs, in parts (all of them when none). */
    private int room;
    /** The host's CPU use that set {@link #room}, for the waiters' words; null while nothing else takes any. */
    private CpuUse busyHost;
    /** {@code tclab.grading.count-other-cpu}: off, the room is always all of the slots. */
    private final boolean countsOtherCpu;

    private long turns;
    private final Map<String, Learner> learners = new HashMap<>();
    /** {@code tclab.grading.slot-mbps}'s default. */
    static final double DEFAULT_SLOT_BITS_PER_SECOND = 1e9;

    /** How long each acquire waited for its slot (zero when one was free), for operators at /q/metrics. */
    private final Timer waits;
    /** Held by a caller taking several whole slots while it takes them (see {@link #acquireFor}). */
    private final ReentrantLock severalSlots = new ReentrantLock();

    @Inject
    public MeasurementSlots(TclabConfig config, MeterRegistry registry) {
        this(
                config.grading().maxConcurrentMeasurements(),
                config.grading().slotMbps() * 1e6,
                config.grading().countOtherCpu(),
                registry);
    }

    public MeasurementSlots(int size) {
        this(size, DEFAULT_SLOT_BITS_PER_SECOND, true, new SimpleMeterRegistry());
    }

    private MeasurementSlots(int size, double slotBitsPerSecond, boolean countsOtherCpu, MeterRegistry registry) {
        this.size = Math.max(1, size);
        this.slotBitsPerSecond = slotBitsPerSecond;
        this.countsOtherCpu = countsOtherCpu;
        this.free = this.size * MeasurementCost.PARTS_PER_SLOT;
        this.room = this.free;
        this.waits = Timer.builder("tclab.measurement.slot.wait")
                .description("Time a throughput measurement waited for a measurement slot")
                .publishPercentileHistogram()
                .register(registry);
    }

    /**
     * Takes a slot for {@code learner}, blocking until one is free and it is the learner's turn. While waiting,
     * {@code onWait} is told the caller's place in line (1 = next) and whether the host is busy with other work, first
     * when the wait begins and again each time either changes; it is not called when a slot is free at once.
     */
    public Slot acquire(String learner, Consumer<SlotWait> onWait) throws InterruptedException {
        return acquire(learner, MeasurementCost.FULL, onWait);
    }

    /** As {@link #acquire(String, Consumer)}, for the share of a slot {@code cost} names. */
    public Slot acquire(String learner, MeasurementCost cost, Consumer<SlotWait> onWait) throws InterruptedException {
        long asked = System.nanoTime();
        Ticket ticket;
        synchronized (this) {
            ticket = new Ticket(learner, Math.min(cost.parts(), size * MeasurementCost.PARTS_PER_SLOT));
            learners.computeIfAbsent(learner, l -> new Learner(++turns)).waiting.add(ticket);
            grant();
        }
        String shown = null;
        while (true) {
            SlotWait now;
            synchronized (this) {
                try {
                    // Told again when the words change: its place, or the host's figure to a tenth of a core.
                    while (!ticket.granted && waitOf(ticket).text().equals(shown)) {
                        wait();
                    }
                } catch (InterruptedException e) {
                    abandon(ticket);
                    throw e;
                }
                if (ticket.granted) {
                    waits.record(System.nanoTime() - asked, TimeUnit.NANOSECONDS);
                    return held(ticket);
                }
                now = waitOf(ticket);
            }
            try {
                onWait.accept(now);
            } catch (RuntimeException e) {
                synchronized (this) {
                    abandon(ticket);
                }
                throw e;
            }
            shown = now.text();
        }
    }

    /**
     * Takes what a load needs: a whole slot for each of its {@code flows} when it has several (at most all there
     * are), else the share of a slot {@code cost} names. The returned slot frees them all.
     */
    public Slot acquireFor(String learner, int flows, MeasurementCost cost, Consumer<SlotWait> onWait)
            throws InterruptedException {
        if (flows <= 1) {
            return acquire(learner, cost, onWait);
        }
        List<Slot> held = acquireWhole(learner, flows, onWait);
        return () -> held.forEach(Slot::close);
    }

    /**
     * Takes {@code count} whole slots (at most all there are). Callers taking several take them one after another
     * under a lock, so two of them never hold part of what each needs while waiting for the rest.
     */
    private List<Slot> acquireWhole(String learner, int count, Consumer<SlotWait> onWait) throws InterruptedException {
        int wanted = Math.max(1, Math.min(count, size));
        List<Slot> held = new ArrayList<>();
        if (wanted > 1) {
            severalSlots.lockInterruptibly();
        }
        try {
            while (held.size() < wanted) {
                held.add(acquire(learner, onWait));
            }
            return held;
        } catch (InterruptedException | RuntimeException e) {
            held.forEach(Slot::close);
            throw e;
        } finally {
            if (wanted > 1) {
                severalSlots.unlock();
            }
        }
    }

    /** The rate of capped flows one slot holds, in bit/s. */
    public double slotBitsPerSecond() {
        return slotBitsPerSecond;
    }

    public int size() {
        return size;
    }

    /** Free slots, with the parts of a slot small measurements leave free. */
    public synchronized double free() {
        return (double) free / MeasurementCost.PARTS_PER_SLOT;
    }

    /** Callers waiting for a slot now. */
    public synchronized int waiting() {
        return learners.values().stream().mapToInt(l -> l.waiting.size()).sum();
    }

    /** Gives free shares to the waiting learners whose turn it is, in turn order, while the next one fits. */
    private void grant() {
        while (true) {
            Learner next = learners.values().stream()
                    .filter(l -> !l.waiting.isEmpty())
                    .min(NEXT)
                    .orElse(null);
            if (next == null || !fits(next.waiting.get(0).parts)) {
                break;
            }
            Ticket ticket = next.waiting.remove(0);
            ticket.granted = true;
            next.held++;
            next.turn = ++turns;
            free -= ticket.parts;
        }
        notifyAll();
    }

    /** Whether a share fits now: in what is free, and in the room other work leaves, unless nothing measures. */
    private boolean fits(int parts) {
        int held = size * MeasurementCost.PARTS_PER_SLOT - free;
        return parts <= free && (held == 0 || held + parts <= room);
    }

    private SlotWait waitOf(Ticket ticket) {
        return new SlotWait(placeOf(ticket), Optional.ofNullable(busyHost));
    }

    /**
     * The host's CPU use changed: the room for measurements is the share of the slots that other work leaves, and
     * waiters are told.
     */
    synchronized void hostCpu(@Observes CpuUse use) {
        if (!countsOtherCpu) {
            return;
        }
        int all = size * MeasurementCost.PARTS_PER_SLOT;
        room = (int) Math.floor(all * use.leftToLabs());
        busyHost = room < all ? use : null;
        grant();
    }

    /** The ticket's place in line if no slot were freed meanwhile: the order {@link #grant()} would serve. */
    private int placeOf(Ticket ticket) {
        record Sim(Learner learner, int held, long turn, int next) {}
        PriorityQueue<Sim> round =
                new PriorityQueue<>(Comparator.<Sim>comparingInt(Sim::held).thenComparingLong(Sim::turn));
        learners.values().stream()
                .filter(l -> !l.waiting.isEmpty())
                .forEach(l -> round.add(new Sim(l, l.held, l.turn, 0)));
        long turn = turns;
        int place = 0;
        while (!round.isEmpty()) {
            Sim s = round.poll();
            place++;
            if (s.learner().waiting.get(s.next()) == ticket) {
                return place;
            }
            if (s.next() + 1 < s.learner().waiting.size()) {
                round.add(new Sim(s.learner(), s.held() + 1, ++turn, s.next() + 1));
            }
        }
        throw new IllegalStateException("a waiting ticket is not in line");
    }

    private Slot held(Ticket ticket) {
        boolean[] released = {false};
        return () -> {
            synchronized (MeasurementSlots.this) {
                if (!released[0]) {
                    released[0] = true;
                    release(ticket);
                }
            }
        };
    }

    private void release(Ticket ticket) {
        String learner = ticket.learner;
        Learner l = learners.get(learner);
        l.held--;
        // Giving a slot back ends a turn too: another learner already waiting goes before this one's next request.
        l.turn = ++turns;
        forgetIfIdle(learner, l);
        free += ticket.parts;
        grant();
    }

    /** An interrupted waiter leaves the line, or gives back the slot it got in the meantime. */
    private void abandon(Ticket ticket) {
        if (ticket.granted) {
            release(ticket);
            return;
        }
        Learner l = learners.get(ticket.learner);
        l.waiting.remove(ticket);
        forgetIfIdle(ticket.learner, l);
        notifyAll();
    }

    private void forgetIfIdle(String learner, Learner l) {
        if (l.held == 0 && l.waiting.isEmpty()) {
            learners.remove(learner);
        }
    }
}
