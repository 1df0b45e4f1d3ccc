package dev.tclab.lab;

import java.util.Optional;

/** Finds the lab topology of a lesson. */
public interface TopologySource {

    /** The lesson's topology; empty when there is no such lesson. */
    Optional<Topology> topologyFor(String lesson) throws TopologyException;
}
