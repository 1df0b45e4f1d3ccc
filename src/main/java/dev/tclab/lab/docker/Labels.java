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
    /** On a sidecar whose main process is the agent ({@link SidecarAgent}); sidecars made before it have none. */
    static final String AGENT = "tclab.agent";
    static final String AGENT_VERSION = "1";

    static final String ROLE_NODE = "node";
    /** A node's measurement sidecar: labelled with its lab and node like the node itself. */
    static final String ROLE_SIDECAR = "sidecar";
    static final String ROLE_WIRING = "wiring";
    static final String ROLE_PROBE = "probe";

    private Labels() {
    }

    static Map<String, String> node(String instance, LabSpec spec, String node, Instant expires) {
        return Map.of(APP, "tclab", INSTANCE, instance, ROLE, ROLE_NODE, LAB, spec.labId(),
                OWNER, spec.owner(), LESSON, spec.lesson(), NODE, node, EXPIRES, Long.toString(expires.getEpochSecond()));
    }

    static Map<String, String> sidecar(String instance, LabSpec spec, String node, Instant expires) {
        return Map.of(APP, "tclab", INSTANCE, instance, ROLE, ROLE_SIDECAR, LAB, spec.labId(),
                OWNER, spec.owner(), LESSON, spec.lesson(), NODE, node, EXPIRES, Long.toString(expires.getEpochSecond()),
                AGENT, AGENT_VERSION);
    }

    /** Filter for every container tclab creates on the engine, of any instance (lab containers carry EXPIRES). */
    static Map<String, String> all() {
        return Map.of(APP, "tclab");
    }

    static Map<String, String> service(String instance, String role) {
        return Map.of(APP, "tclab", INSTANCE, instance, ROLE, role);
    }

    /** Filter for every container of this instance's lab: its nodes and their sidecars. */
    static Map<String, String> labOf(String instance, String labId) {
        return Map.of(APP, "tclab", INSTANCE, instance, LAB, labId);
    }

    /** Filter for every container of this instance (lab containers, the wiring helper, probes). */
    static Map<String, String> instance(String instance) {
        return Map.of(APP, "tclab", INSTANCE, instance);
    }
}
