package dev.tclab.lab;

import dev.tclab.runtime.topology.Topology;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * This replica's labs: learners' labs by id, the warm pool and the start queue, and the one lock under which a
 * Start, the queue and the pool's refill share the server's slots. Nobody else holds the map: the service, the pool
 * keeper, the adoption, the cull and the replica sync read and change it here.
 */
final class LabTable {

    private final Map<String, Lab> labs = new ConcurrentHashMap<>();
    private final WarmPool pool = new WarmPool();
    private final StartQueue queue;
    private final int maxRunning;

    LabTable(int maxRunning, int queueSize) {
        this.maxRunning = maxRunning;
        this.queue = new StartQueue(queueSize);
    }

    /** What a Start got: the learner's live lab, a new one (starting or queued), or one claimed from the pool. */
    record Placement(Lab lab, boolean created, Lab fromPool, Lab evicted) {}

    /**
     * Places a Start under the lock: the learner's live lab if there is one; else a ready pooled lab claimed for
     * them; else a new lab, queued when the server runs its maximum or others already wait (a pooled lab nobody
     * asked for yet gives up its slot first, returned as {@code evicted} for the caller to retire).
     *
     * @param claim makes the learner's lab of a pooled one ({@link Lab#claimedBy}), with its terms
     * @param fresh makes a new lab, queued or not ({@code true}: queued), with its terms
     */
    synchronized Placement place(
            String owner,
            String lesson,
            Instant now,
            StartAdmission admission,
            Function<Lab, Lab> claim,
            BiFunction<String, Boolean, Lab> fresh)
            throws ServerFullException, QuotaExceededException {
        Optional<Lab> existing = liveLabOf(owner, lesson);
        if (existing.isPresent()) {
            existing.get().touch(now);
            return new Placement(existing.get(), false, null, null);
        }
        Lab fromPool = pool.takeReady(lesson).orElse(null);
        if (fromPool != null) {
            Lab lab = claim.apply(fromPool);
            try {
                admission.admit(lab);
            } catch (QuotaExceededException e) {
                pool.add(fromPool);
                throw e;
            }
            labs.put(lab.id(), lab);
            return new Placement(lab, true, fromPool, null);
        }
        boolean full = liveCount() >= maxRunning || !queue.isEmpty();
        // A learner comes before a pooled lab nobody asked for yet: that one gives up its slot.
        boolean slotFromPool = full && queue.isEmpty() && pool.size() > 0;
        boolean queued = full && !slotFromPool;
        // First come, first served: while others wait, a new start waits behind them even if a slot is free.
        if (queued && queue.isFull()) {
            throw new ServerFullException(maxRunning, queue.limit());
        }
        Lab lab = fresh.apply(LabIds.next(), queued);
        admission.admit(lab);
        labs.put(lab.id(), lab);
        Lab evicted = null;
        if (slotFromPool) {
            evicted = pool.takeForSlot(lesson).orElseThrow();
        } else if (queued) {
            queue.add(lab);
        }
        return new Placement(lab, true, null, evicted);
    }

    /** Takes the queued labs that free slots allow, oldest first. */
    synchronized List<Lab> takeQueued() {
        return queue.take(Math.max(0, maxRunning - liveCount()));
    }

    /** Puts a recorded queued lab back in the queue (after a restart), recorded as it is. */
    synchronized void requeue(Lab lab) {
        queue.add(lab);
        queue.recorded(lab);
    }

    /**
     * Adds pooled labs while a slot is free for the pool (none while learners wait in the queue): for each lesson,
     * up to its missing count, at most {@code room} in all. Returns the labs added, for the caller to start.
     *
     * @param make a new pooled lab of the lesson with its topology, with its terms
     */
    synchronized List<Lab> addPooled(
            Map<String, Topology> lessons,
            Map<String, Integer> wanted,
            int room,
            BiFunction<String, Topology, Lab> make) {
        List<Lab> added = new ArrayList<>();
        for (Map.Entry<String, Topology> lesson : lessons.entrySet()) {
            int missing = wanted.get(lesson.getKey()) - pool.count(lesson.getKey());
            for (; missing > 0 && room > 0 && liveCount() < maxRunning && queue.isEmpty(); missing--, room--) {
                Lab lab = make.apply(lesson.getKey(), lesson.getValue());
                pool.add(lab);
                added.add(lab);
            }
        }
        return added;
    }

    WarmPool pool() {
        return pool;
    }

    StartQueue queue() {
        return queue;
    }

    int maxRunning() {
        return maxRunning;
    }

    /** The learner's lab with this id (not a pooled one); null when this replica does not know it. */
    Lab get(String labId) {
        return labs.get(labId);
    }

    /** The lab with this id, a learner's or a pooled one. */
    Optional<Lab> find(String labId) {
        Lab lab = labs.get(labId);
        return lab != null ? Optional.of(lab) : pool.find(labId);
    }

    /** Adds the lab unless one with its id is known; false when one was. */
    boolean putIfAbsent(Lab lab) {
        return labs.putIfAbsent(lab.id(), lab) == null;
    }

    void remove(String labId) {
        labs.remove(labId);
    }

    /** Forgets a lab in the map and in the pool. */
    void forget(Lab lab) {
        labs.remove(lab.id());
        pool.remove(lab);
    }

    /** A copy of the learners' labs. */
    List<Lab> all() {
        return List.copyOf(labs.values());
    }

    Optional<Lab> liveLabOf(String owner, String lesson) {
        return labs.values().stream()
                .filter(l -> l.owner().equals(owner)
                        && l.lesson().equals(lesson)
                        && l.phase().live())
                .findFirst();
    }

    /** Every lab of each of these learners, newest first. */
    Map<String, List<Lab>> labsOf(Collection<String> owners) {
        Set<String> wanted = Set.copyOf(owners);
        return labs.values().stream()
                .filter(l -> wanted.contains(l.owner()))
                .sorted((a, b) -> b.createdAt().compareTo(a.createdAt()))
                .collect(Collectors.groupingBy(Lab::owner));
    }

    /** Labs holding a slot of the server's maximum: learners' starting and running labs, and the pool's. */
    int liveCount() {
        return (int) labs.values().stream().filter(l -> l.phase().holdsSlot()).count() + pool.size();
    }

    int countIn(LabPhase phase) {
        return (int) labs.values().stream().filter(l -> l.phase() == phase).count();
    }

    /** Whether a learner's lab is starting or queued on this server: the pool's refill waits for those. */
    boolean learnersStarting() {
        return labs.values().stream().anyMatch(l -> l.phase() == LabPhase.STARTING || l.phase() == LabPhase.QUEUED);
    }

    /** Forgets labs that ended a day ago or more. */
    void forgetEndedBefore(Instant now) {
        labs.values()
                .removeIf(l -> !l.phase().live()
                        && Duration.between(l.lastActivity(), now).toHours() >= 24);
    }
}
