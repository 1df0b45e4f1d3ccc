package dev.tclab.lab.docker;

import dev.tclab.lab.LabSpec;
import java.time.Instant;
import java.util.Map;

/** The labels on every container tclab creates, so that its containers can always be found and reaped. */
final class Labels {

    static final String APP = "tclab.app";
    static final String INSTANCE = "tclab.instance";
    static final String LAB = "tclab.lab";
    static final String OWNER = "tclab.owner";
    static final String LESSON = "tclab.lesson";
    static final String NODE = "tclab.node";
    static final String ROLE = "tclab.role";
    /** When a node container is an orphan for sure, in epoch seconds: no live app keeps a lab that long. */
    static final String EXPIRES = "tclab.expires";

    static final String ROLE_NODE = "node";
    static final String ROLE_WIRING = "wiring";
    static final String ROLE_PROBE = "probe";

    private Labels() {
    }

    static Map<String, String> node(String instance, LabSpec spec, String node, Instant expires) {
        return Map.of(APP, "tclab", INSTANCE, instance, ROLE, ROLE_NODE, LAB, spec.labId(),
                OWNER, spec.owner(), LESSON, spec.lesson(), NODE, node, EXPIRES, Long.toString(expires.getEpochSecond()));
    }

    /** Filter for the node containers of every instance on the engine. */
    static Map<String, String> allNodes() {
        return Map.of(APP, "tclab", ROLE, ROLE_NODE);
    }

    static Map<String, String> service(String instance, String role) {
        return Map.of(APP, "tclab", INSTANCE, instance, ROLE, role);
    }

    /** Filter for every node container of this instance (optionally of one lab). */
    static Map<String, String> nodesOf(String instance, String labId) {
        return labId == null
                ? Map.of(APP, "tclab", INSTANCE, instance, ROLE, ROLE_NODE)
                : Map.of(APP, "tclab", INSTANCE, instance, ROLE, ROLE_NODE, LAB, labId);
    }
}
