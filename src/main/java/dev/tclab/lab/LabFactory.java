package dev.tclab.lab;

import dev.tclab.runtime.topology.Topology;
import dev.tclab.runtime.topology.TopologyException;
import dev.tclab.runtime.topology.TopologySource;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Makes this replica's labs with their lesson's topology and their terms: pooled ones, and recorded ones taken back. */
final class LabFactory {

    private final TopologySource topologies;
    private final LabTermsPolicy terms;

    LabFactory(TopologySource topologies, LabTermsPolicy terms) {
        this.topologies = topologies;
        this.terms = terms;
    }

    /** The lesson's topology; null when the lesson is gone or broken. */
    Topology topologyOf(String lesson) {
        try {
            return topologies.topologyFor(lesson).orElse(null);
        } catch (TopologyException e) {
            return null;
        }
    }

    LabTerms termsFor(String owner, String lesson, Instant created) {
        return terms.termsFor(owner, lesson, created);
    }

    /** A recorded lab as this replica's, with its terms; its topology is an empty one when the lesson is gone. */
    Lab restored(LabRecord record, Topology topology, Instant now) {
        Lab lab = Lab.restored(
                record, topology == null ? new Topology(record.lesson(), Map.of(), List.of()) : topology, now);
        lab.governedBy(terms.termsFor(record.owner(), record.lesson(), record.createdAt()));
        return lab;
    }

    /** A recorded lab as this replica's, with its lesson's topology as it is now. */
    Lab restored(LabRecord record, Instant now) {
        return restored(record, topologyOf(record.lesson()), now);
    }

    /** A new lab for the warm pool, with no owner yet. */
    Lab pooled(String lesson, Topology topology, Instant now) {
        Lab lab = Lab.pooled(LabIds.next(), lesson, topology, now);
        lab.governedBy(terms.termsFor(null, lab.lesson(), lab.createdAt()));
        return lab;
    }

    static String lessonGone(String lesson) {
        return "The lesson '" + lesson + "' of this lab is gone or broken. Start it again once fixed.";
    }
}
