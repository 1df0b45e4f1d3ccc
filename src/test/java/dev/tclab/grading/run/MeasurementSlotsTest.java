package dev.tclab.grading.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tclab.cpu.CpuUse;
import dev.tclab.grading.spec.CheckSpec;
import dev.tclab.grading.spec.CheckSpecParser;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Measurement slots go round robin per learner, FIFO within a learner, and waiters learn their place in line. */
class MeasurementSlotsTest {

    /** Who got a slot, in order. */
    private final List<String> granted = new CopyOnWriteArrayList<>();
    /** The last place in line each waiter was told. */
    private final Map<String, Integer> places = new ConcurrentHashMap<>();
    /** The last word each waiter was told. */
    private final Map<String, MeasurementSlots.SlotWait> waits = new ConcurrentHashMap<>();

    private final List<Waiter> waiters = new CopyOnWriteArrayList<>();

    /** A thread that takes a slot for a learner and holds it until released. */
    private final class Waiter {
        private final String name;
        private final CountDownLatch release = new CountDownLatch(1);
        private final CountDownLatch done = new CountDownLatch(1);
        private final Thread thread;
        private volatile boolean interrupted;

        Waiter(MeasurementSlots slots, String learner, String name) {
            this(slots, learner, name, MeasurementCost.FULL);
        }

        Waiter(MeasurementSlots slots, String learner, String name, MeasurementCost cost) {
            this.name = name;
            this.thread = new Thread(
                    () -> {
                        try (MeasurementSlots.Slot slot = slots.acquire(learner, cost, wait -> {
                            waits.put(name, wait);
                            places.put(name, wait.place());
                        })) {
                            granted.add(name);
                            release.await();
                        } catch (InterruptedException e) {
                            interrupted = true;
                        } finally {
                            done.countDown();
                        }
                    },
                    "waiter-" + name);
            waiters.add(this);
            thread.start();
        }

        void release() throws InterruptedException {
            release.countDown();
            assertTrue(done.await(5, TimeUnit.SECONDS), name + " released its slot");
        }
    }

    @AfterEach
    void stopWaiters() {
        waiters.forEach(w -> w.thread.interrupt());
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < until, "timed out waiting until " + what);
            Thread.sleep(2);
        }
    }

    private Waiter holding(MeasurementSlots slots, String learner, String name) throws InterruptedException {
        Waiter w = new Waiter(slots, learner, name);
        await(() -> granted.contains(name), name + " holds a slot");
        return w;
    }

    private Waiter waiting(MeasurementSlots slots, String learner, String name) throws InterruptedException {
        int before = slots.waiting();
        Waiter w = new Waiter(slots, learner, name);
        await(() -> slots.waiting() == before + 1 && places.containsKey(name), name + " waits");
        return w;
    }

    @Test
    void shouldGiveAFreedSlotToAnotherLearnerBeforeASecondOneToTheSameLearner() throws Exception {
        // Row 8: one learner's two checks held both slots and the next freed slot went to them again, so another
        // learner's check waited 27 s.
        MeasurementSlots slots = new MeasurementSlots(2);
        Waiter a1 = holding(slots, "ann", "a1");
        holding(slots, "ann", "a2");
        waiting(slots, "ann", "a3");
        waiting(slots, "bob", "b1");
        assertEquals(1, places.get("b1"), "bob holds nothing, so he is next");
        await(() -> places.get("a3") == 2, "ann's third check moves back behind bob");

        a1.release();
        await(() -> granted.size() == 3, "the freed slot is given");
        assertEquals(List.of("a1", "a2", "b1"), granted);
        assertEquals(1, slots.waiting(), "ann's third check still waits");
        assertEquals(0, slots.free());
    }

    @Test
    void shouldServeLearnersRoundRobinAndEachLearnersChecksInOrder() throws Exception {
        MeasurementSlots slots = new MeasurementSlots(1);
        Waiter holder = holding(slots, "host", "h");
        waiting(slots, "ann", "a1");
        waiting(slots, "ann", "a2");
        waiting(slots, "ann", "a3");
        assertEquals(Map.of("a1", 1, "a2", 2, "a3", 3), places);
        waiting(slots, "bob", "b1");
        waiting(slots, "cy", "c1");
        await(
                () -> places.equals(Map.of("a1", 1, "b1", 2, "c1", 3, "a2", 4, "a3", 5)),
                "late learners go ahead of ann's second and third check: " + places);

        Waiter current = holder;
        for (int i = 1; i <= 5; i++) {
            current.release();
            int expected = i + 1;
            await(() -> granted.size() == expected, "the next waiter gets the slot");
            String next = granted.get(i);
            current = waiters.stream()
                    .filter(w -> w.name.equals(next))
                    .findFirst()
                    .orElseThrow();
        }
        current.release();
        assertEquals(List.of("h", "a1", "b1", "c1", "a2", "a3"), granted);
        assertEquals(1, slots.free());
        assertEquals(0, slots.waiting());
    }

    @Test
    void shouldTakeAFreeSlotAtOnceWithoutSayingItWaits() throws Exception {
        MeasurementSlots slots = new MeasurementSlots(2);
        holding(slots, "ann", "a1");
        holding(slots, "ann", "a2");
        assertFalse(places.containsKey("a1") || places.containsKey("a2"), "nobody was told to wait");
    }

    @Test
    void shouldLetAnInterruptedWaiterLeaveTheLineAndMoveTheOthersUp() throws Exception {
        MeasurementSlots slots = new MeasurementSlots(1);
        Waiter holder = holding(slots, "host", "h");
        Waiter a1 = waiting(slots, "ann", "a1");
        waiting(slots, "bob", "b1");
        assertEquals(2, places.get("b1"));
        a1.thread.interrupt();
        assertTrue(a1.done.await(5, TimeUnit.SECONDS));
        assertTrue(a1.interrupted);
        await(() -> places.get("b1") == 1, "bob moves up");
        holder.release();
        await(() -> granted.contains("b1"), "bob gets the slot");
        assertFalse(granted.contains("a1"));
    }

    private static MeasurementCost parts(int parts) {
        return new MeasurementCost(parts, java.util.OptionalDouble.empty());
    }

    @Test
    void shouldRunManyCheapCappedFlowsAtOnceInOneSlot() throws Exception {
        // Thirty learners checking a 10 Mbit/s step: each flow is capped at 23 Mbit/s and costs 1/20 of a slot.
        MeasurementSlots slots = new MeasurementSlots(2);
        CheckSpec spec = CheckSpecParser.parse("t.md", """
                measure: [ { name: up, node: client, iperf3: { server: 10.0.0.2 } } ]
                expect: [ { value: up.mbps, near: 10mbit, within: 15% } ]
                """, 1);
        MeasurementCost capped = MeasurementCost.of(spec, spec.measurements().get(0), slots.slotBitsPerSecond());
        assertEquals(5, capped.parts());
        for (int i = 0; i < 30; i++) {
            new Waiter(slots, "learner" + i, "l" + i, capped);
        }
        await(() -> granted.size() == 30, "all thirty flows run at once");
        assertEquals(0.5, slots.free(), 1e-9, "30 × 1/20 of a slot leaves half of the second slot");
        assertTrue(places.isEmpty(), "nobody waited");
    }

    @Test
    void shouldKeepALineRateFlowFromBeingStarvedBySmallOnes() throws Exception {
        MeasurementSlots slots = new MeasurementSlots(1);
        Waiter small = new Waiter(slots, "ann", "a1", parts(50));
        await(() -> granted.contains("a1"), "ann's small flow runs");
        waiting(slots, "bob", "b1");
        Waiter late = new Waiter(slots, "cy", "c1", parts(10));
        await(() -> places.containsKey("c1"), "cy is told to wait");
        assertEquals(2, places.get("c1"), "a small flow that would fit still waits behind bob's whole-slot flow");
        assertFalse(granted.contains("c1"));
        small.release();
        await(() -> granted.contains("b1"), "bob's flow gets the whole slot");
        assertFalse(granted.contains("c1"), "and runs alone");
        waiters.stream()
                .filter(w -> w.name.equals("b1"))
                .findFirst()
                .orElseThrow()
                .release();
        await(() -> granted.contains("c1"), "then cy's");
        late.release();
        assertEquals(1, slots.free(), 1e-9);
    }

    @Test
    void shouldGiveOutOnlyTheShareOfTheSlotsThatOtherWorkLeavesAndSayWhy() throws Exception {
        MeasurementSlots slots = new MeasurementSlots(2);
        // Another program keeps 1.4 of the host's 2 CPUs busy: 30 % of the two slots is left, 60 parts.
        slots.hostCpu(new CpuUse(2, 1.9, 0.3, 0.2));
        Waiter a = new Waiter(slots, "ann", "a1", parts(25));
        Waiter b = new Waiter(slots, "bob", "b1", parts(25));
        await(() -> granted.containsAll(List.of("a1", "b1")), "two quarter-slot flows fit in 60 parts");
        Waiter c = new Waiter(slots, "cy", "c1", parts(25));
        await(() -> waits.containsKey("c1"), "cy is told to wait");
        assertEquals(
                "1st in line; other work than the labs keeps 1.4 of the server's 2 CPUs busy, so fewer checks measure"
                        + " at once",
                waits.get("c1").text());
        assertFalse(granted.contains("c1"), "75 parts would not fit in 60");

        slots.hostCpu(new CpuUse(2, 0.5, 0.3, 0.2));
        await(() -> granted.contains("c1"), "the other work ended: cy measures");
        for (Waiter w : List.of(a, b, c)) {
            w.release();
        }
        assertEquals(2, slots.free(), 1e-9);
    }

    @Test
    void shouldLetTheNextMeasureWhenNothingDoesHoweverBusyTheHostIs() throws Exception {
        MeasurementSlots slots = new MeasurementSlots(2);
        slots.hostCpu(new CpuUse(2, 2, 0, 0));
        Waiter a = new Waiter(slots, "ann", "a1", MeasurementCost.FULL);
        await(() -> granted.contains("a1"), "nothing measures: ann's flow runs");
        Waiter b = new Waiter(slots, "bob", "b1", parts(5));
        await(() -> waits.containsKey("b1"), "bob waits while ann measures on a busy host");
        assertTrue(waits.get("b1").busyHost().isPresent());
        a.release();
        await(() -> granted.contains("b1"), "then bob's");
        b.release();
    }

    @Test
    void shouldNameThePlaceInWords() {
        assertEquals(
                List.of("1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"),
                List.of(1, 2, 3, 4, 11, 12, 13, 21, 22, 101).stream()
                        .map(CheckRunner::ordinal)
                        .toList());
    }
}
