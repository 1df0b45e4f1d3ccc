package dev.tclab.runtime.docker;

import static dev.tclab.runtime.LabelKeys.APP;
import static dev.tclab.runtime.LabelKeys.EXPIRES;
import static dev.tclab.runtime.LabelKeys.INSTANCE;
import static dev.tclab.runtime.LabelKeys.LAB;
import static dev.tclab.runtime.LabelKeys.LESSON;
import static dev.tclab.runtime.LabelKeys.NODE;
import static dev.tclab.runtime.LabelKeys.OWNER;
import static dev.tclab.runtime.LabelKeys.PLATFORM;
import static dev.tclab.runtime.LabelKeys.ROLE;
import static dev.tclab.runtime.LabelKeys.ROLE_NODE;

import dev.tclab.runtime.LabSpec;
import dev.tclab.runtime.LabelKeys;
import dev.tclab.runtime.agent.SidecarAgent;
import dev.tclab.runtime.agent.UmlScripts;
import java.time.Instant;
import java.util.Map;

/**
 * The labels on every container tclab creates, so that its containers can always be found and reaped: the keys every
 * runtime uses ({@link LabelKeys}) and the Docker runtime's own.
 */
public final class Labels {

    /**
     * On a sidecar whose main process is the agent ({@link SidecarAgent}): its version. Sidecars made before agents
     * have none, and those of another build another version: their commands run by exec.
     */
    public static final String AGENT = "tclab.agent";

    public static final String AGENT_VERSION = SidecarAgent.version();

    /** A node's measurement sidecar: labelled with its lab and node like the node itself. */
    public static final String ROLE_SIDECAR = "sidecar";

    public static final String ROLE_PROBE = "probe";
    /** A User-Mode Linux lab: one container whose kernel holds every node (the nodes are in NODES). */
    public static final String ROLE_UML = LabelKeys.ROLE_UML;
    /** On a UML lab's container: its nodes' names, comma-separated, in the lab's order. */
    public static final String NODES = LabelKeys.NODES;

    private Labels() {}

    public static Map<String, String> node(String instance, LabSpec spec, String node, Instant expires) {
        return Map.of(
                APP,
                "tclab",
                INSTANCE,
                instance,
                ROLE,
                ROLE_NODE,
                LAB,
                spec.labId(),
                OWNER,
                spec.owner(),
                LESSON,
                spec.lesson(),
                NODE,
                node,
                EXPIRES,
                Long.toString(expires.getEpochSecond()));
    }

    public static Map<String, String> sidecar(String instance, LabSpec spec, String node, Instant expires) {
        return Map.of(
                APP,
                "tclab",
                INSTANCE,
                instance,
                ROLE,
                ROLE_SIDECAR,
                LAB,
                spec.labId(),
                OWNER,
                spec.owner(),
                LESSON,
                spec.lesson(),
                NODE,
                node,
                EXPIRES,
                Long.toString(expires.getEpochSecond()),
                AGENT,
                AGENT_VERSION);
    }

    /** The labels of a UML lab's one container. */
    public static Map<String, String> uml(String instance, LabSpec spec, Instant expires) {
        return Map.of(
                APP,
                "tclab",
                INSTANCE,
                instance,
                ROLE,
                ROLE_UML,
                LAB,
                spec.labId(),
                OWNER,
                spec.owner(),
                LESSON,
                spec.lesson(),
                NODES,
                String.join(",", spec.topology().nodes().keySet()),
                EXPIRES,
                Long.toString(expires.getEpochSecond()),
                PLATFORM,
                UmlScripts.VERSION);
    }

    /** Filter for every container tclab creates on the engine, of any instance (lab containers carry EXPIRES). */
    public static Map<String, String> all() {
        return Map.of(APP, "tclab");
    }

    /**
     * The labels of a throwaway container (the kernel probe): its expiry lets the reaper remove one left behind by an
     * app killed while it ran, as it removes an orphaned lab's containers.
     */
    public static Map<String, String> throwaway(String instance, String role, Instant expires) {
        return Map.of(APP, "tclab", INSTANCE, instance, ROLE, role, EXPIRES, Long.toString(expires.getEpochSecond()));
    }

    public static Map<String, String> service(String instance, String role) {
        return Map.of(APP, "tclab", INSTANCE, instance, ROLE, role);
    }

    /** The labels of a service container of the app whose main process is the agent ({@link SidecarAgent}). */
    public static Map<String, String> agentService(String instance, String role) {
        return Map.of(APP, "tclab", INSTANCE, instance, ROLE, role, AGENT, AGENT_VERSION);
    }

    /** Filter for every container of this instance's lab: its nodes and their sidecars. */
    public static Map<String, String> labOf(String instance, String labId) {
        return Map.of(APP, "tclab", INSTANCE, instance, LAB, labId);
    }

    /** Filter for every container of this instance (lab containers, the wiring helper, probes). */
    public static Map<String, String> instance(String instance) {
        return Map.of(APP, "tclab", INSTANCE, instance);
    }
}
