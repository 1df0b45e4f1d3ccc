package dev.tclab.lab;

import java.util.Map;
import java.util.Optional;

/** Finds the lab topology of a lesson. */
public interface TopologySource {

    /** The lesson's topology; empty when there is no such lesson. */
    Optional<Topology> topologyFor(String lesson) throws TopologyException;

    /** The learner's values of the lesson's parameters (kept in the lab's record); empty when it has none. */
    default Map<String, String> parametersFor(String lesson, String learner) {
        return Map.of();
    }

    /** The lesson's title as learners read it; the slug when it has none. */
    default String titleOf(String lesson) {
        return lesson;
    }
}
