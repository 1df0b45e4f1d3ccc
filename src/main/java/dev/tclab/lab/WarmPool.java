package dev.tclab.lab;

import dev.tclab.runtime.topology.Topology;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The labs of the warm pool: started with no owner, STARTING or RUNNING, each waiting for the first learner to
 * press Start on its lesson. Only bookkeeping, guarded by its own lock; {@link LabService} starts, claims and stops
 * them. Pooled labs are not in the service's map of learners' labs, so no page, dashboard, quota or idle cull ever
 * sees them.
 */
final class WarmPool {

    private final List<Lab> labs = new ArrayList<>();

    /**
     * Whether labs of this topology may be pooled: every learner must get the same lab, since the learner is known
     * only at the claim. tclab never substitutes a lesson's parameters in lab.yml, so a lab.yml that names one
     * ({@code {{name}}} in a command, image, environment or sysctl) would be broken anyway; it is not pooled, so
     * that a lab depending on a learner's values is never handed to another.
     */
    static boolean poolable(Topology topology) {
        return topology.nodes().values().stream()
                .noneMatch(node -> mentionsParameter(node.image())
                        || node.exec().stream().anyMatch(WarmPool::mentionsParameter)
                        || node.env().values().stream().anyMatch(WarmPool::mentionsParameter)
                        || node.sysctls().values().stream().anyMatch(WarmPool::mentionsParameter));
    }

    private static boolean mentionsParameter(String text) {
        return text != null && text.contains("{{");
    }

    synchronized void add(Lab lab) {
        labs.add(lab);
    }

    synchronized boolean remove(Lab lab) {
        return labs.remove(lab);
    }

    synchronized Optional<Lab> find(String labId) {
        return labs.stream().filter(l -> l.id().equals(labId)).findFirst();
    }

    synchronized boolean holdsReady(String lesson) {
        return labs.stream().anyMatch(l -> l.lesson().equals(lesson) && l.phase() == LabPhase.RUNNING);
    }

    /** Takes the oldest ready lab of the lesson out of the pool, for a learner to claim. */
    synchronized Optional<Lab> takeReady(String lesson) {
        Optional<Lab> ready = labs.stream()
                .filter(l -> l.lesson().equals(lesson) && l.phase() == LabPhase.RUNNING)
                .min(Comparator.comparing(Lab::createdAt));
        ready.ifPresent(labs::remove);
        return ready;
    }

    /**
     * Takes a pooled lab out of the pool to free its slot for a learner's start of {@code lesson} (which found no
     * ready one of its own): one of another lesson before one of this lesson still starting, a ready one before one
     * still starting (whose start would be wasted), and from the lesson with the most pooled labs first.
     */
    synchronized Optional<Lab> takeForSlot(String lesson) {
        Map<String, Integer> counts = counts();
        Optional<Lab> victim = labs.stream()
                .max(Comparator.<Lab, Boolean>comparing(l -> !l.lesson().equals(lesson))
                        .thenComparing(l -> l.phase() == LabPhase.RUNNING)
                        .thenComparing(l -> counts.get(l.lesson())));
        victim.ifPresent(labs::remove);
        return victim;
    }

    /**
     * Takes out the labs beyond each lesson's target (a target lowered, an event over) and the ones that waited
     * longer than {@code maxWait}, newest first among the surplus, so the older ready ones stay.
     */
    synchronized List<Lab> takeSurplusAndStale(Map<String, Integer> targets, Instant now, Duration maxWait) {
        List<Lab> out = new ArrayList<>();
        for (Lab lab : List.copyOf(labs)) {
            if (Duration.between(lab.createdAt(), now).compareTo(maxWait) > 0) {
                out.add(lab);
                labs.remove(lab);
            }
        }
        Map<String, Integer> counts = counts();
        for (Map.Entry<String, Integer> count : counts.entrySet()) {
            int surplus = count.getValue() - targets.getOrDefault(count.getKey(), 0);
            List<Lab> newestFirst = labs.stream()
                    .filter(l -> l.lesson().equals(count.getKey()))
                    .sorted(Comparator.comparing(Lab::createdAt).reversed())
                    .limit(Math.max(0, surplus))
                    .toList();
            out.addAll(newestFirst);
            labs.removeAll(newestFirst);
        }
        return out;
    }

    /** Pooled labs of the lesson, starting or ready. */
    synchronized int count(String lesson) {
        return (int) labs.stream().filter(l -> l.lesson().equals(lesson)).count();
    }

    /** Pooled labs still starting. */
    synchronized int starting() {
        return (int) labs.stream().filter(l -> l.phase() == LabPhase.STARTING).count();
    }

    /** Every pooled lab: each holds a slot of the server's maximum. */
    synchronized int size() {
        return labs.size();
    }

    synchronized List<Lab> all() {
        return List.copyOf(labs);
    }

    private Map<String, Integer> counts() {
        Map<String, Integer> counts = new HashMap<>();
        labs.forEach(l -> counts.merge(l.lesson(), 1, Integer::sum));
        return counts;
    }
}
