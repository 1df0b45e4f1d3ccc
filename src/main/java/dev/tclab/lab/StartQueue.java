package dev.tclab.lab;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The labs waiting for a free slot, first come first served, and how long the wait may be. The wait is estimated
 * from how often slots freed lately (labs end when learners stop them or are culled, which no clock predicts), so
 * there is no estimate until two slots have freed. Guarded by its own lock; {@link LabService} decides when a lab
 * joins and when the head may start. A lab joins in its place at once but may start only once it is
 * {@link #recorded} in the lab registry (so that a restart finds it again): until then the queue waits at it.
 */
final class StartQueue {

    /** How many recent slot frees the estimate averages over, and how old one may be to count. */
    private static final int FREES_KEPT = 20;

    private static final Duration FREES_WINDOW = Duration.ofMinutes(30);

    private final int limit;
    private final Deque<Lab> waiting = new ArrayDeque<>();
    private final Deque<Instant> frees = new ArrayDeque<>();
    /** Labs in {@link #waiting} not recorded yet: none of them, nor any behind them, may start. */
    private final Set<Lab> unrecorded = new HashSet<>();

    StartQueue(int limit) {
        this.limit = limit;
    }

    /** Where a queued lab stands: its 1-based position and, when known, about how long until it starts. */
    record Spot(int position, int waiting, Optional<Duration> estimatedWait) {}

    int limit() {
        return limit;
    }

    synchronized boolean isFull() {
        return waiting.size() >= limit;
    }

    synchronized boolean isEmpty() {
        return waiting.isEmpty();
    }

    synchronized int size() {
        return waiting.size();
    }

    /** Puts the lab at the end of the queue, not recorded yet (see {@link #recorded}). */
    synchronized void add(Lab lab) {
        waiting.addLast(lab);
        unrecorded.add(lab);
    }

    /** Notes that the queued lab is in the registry, so it may start when its turn comes. */
    synchronized void recorded(Lab lab) {
        unrecorded.remove(lab);
    }

    synchronized void remove(Lab lab) {
        waiting.remove(lab);
        unrecorded.remove(lab);
    }

    /**
     * Takes up to {@code slots} labs from the head that are still waiting (a lab stopped meanwhile is dropped),
     * stopping at the first one not recorded yet.
     */
    synchronized List<Lab> take(int slots) {
        List<Lab> next = new ArrayList<>();
        while (next.size() < slots && !waiting.isEmpty() && !unrecorded.contains(waiting.peekFirst())) {
            Lab lab = waiting.pollFirst();
            if (lab.dequeued()) {
                next.add(lab);
            }
        }
        return next;
    }

    /** Notes that a slot freed now, for the estimate. */
    synchronized void slotFreed(Instant now) {
        frees.addLast(now);
        while (frees.size() > FREES_KEPT) {
            frees.removeFirst();
        }
    }

    synchronized Optional<Spot> spotOf(Lab lab, Instant now) {
        int position = 1;
        for (Lab queued : waiting) {
            if (queued == lab) {
                return Optional.of(new Spot(position, waiting.size(), estimate(position, now)));
            }
            position++;
        }
        return Optional.empty();
    }

    /** The mean time between the recent frees, times the position. */
    private Optional<Duration> estimate(int position, Instant now) {
        List<Instant> recent =
                frees.stream().filter(t -> t.isAfter(now.minus(FREES_WINDOW))).toList();
        if (recent.size() < 2) {
            return Optional.empty();
        }
        Duration span = Duration.between(recent.get(0), now);
        return Optional.of(span.dividedBy(recent.size()).multipliedBy(position));
    }
}
