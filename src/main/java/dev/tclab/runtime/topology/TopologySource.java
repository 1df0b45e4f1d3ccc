package dev.tclab.runtime.topology;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Finds the lab topology of a lesson. */
public interface TopologySource {

    /** The lesson's topology; empty when there is no such lesson. */
    Optional<Topology> topologyFor(String lesson) throws TopologyException;

    /** The learner's values of the lesson's parameters (kept in the lab's record); empty when it has none. */
    default Map<String, String> parametersFor(String lesson, String learner) {
        return Map.of();
    }

    /**
     * The kernel features ({@code qdisc:cake}, ...) the lesson's lab requires, so a runtime with many hosts can place
     * it on one that has them; empty when it requires none or there is no such lesson.
     */
    default Set<String> kernelFeaturesFor(String lesson) {
        return Set.of();
    }

    /**
     * The kernel features the lesson requires and those its guarded commands, solutions and checks choose on
     * ({@code uses}): what {@code kernel: auto} asks of the host's kernel before it runs the lab there.
     */
    default Set<String> kernelFeaturesUsedBy(String lesson) {
        return kernelFeaturesFor(lesson);
    }

    /** The lesson's title as learners read it; the slug when it has none. */
    default String titleOf(String lesson) {
        return lesson;
    }
}
