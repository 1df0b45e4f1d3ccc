package dev.tclab.runtime;

import java.util.List;
import java.util.Optional;

/** One node's container as the engine sees it: {@code state} is the engine's word (running, exited, ...). */
public record NodeStatus(String node, boolean running, String state) {

    /**
     * Why a lab with these nodes is dead, in the learner's words ("node r1 is exited", "its containers are gone");
     * empty when every node runs.
     */
    public static Optional<String> whyDead(List<NodeStatus> nodes) {
        if (nodes.isEmpty()) {
            return Optional.of("its containers are gone");
        }
        return nodes.stream().filter(n -> !n.running()).findFirst().map(n -> "node " + n.node() + " is " + n.state());
    }
}
