package dev.tclab.runtime;

/**
 * The label keys on every container or pod a runtime creates, the same on every runtime, so that a lab's parts can
 * always be found and reaped by label (the Docker runtime's {@code Labels}, the Kubernetes runtime's
 * {@code KubeLabels} build their labels from these).
 */
public final class LabelKeys {

    public static final String APP = "tclab.app";
    public static final String INSTANCE = "tclab.instance";
    public static final String LAB = "tclab.lab";
    public static final String OWNER = "tclab.owner";
    public static final String LESSON = "tclab.lesson";
    public static final String NODE = "tclab.node";
    public static final String ROLE = "tclab.role";
    /** When a lab's container or pod is an orphan for sure, in epoch seconds ({@link LabExpiry}). */
    public static final String EXPIRES = "tclab.expires";

    /** The role of a lab's node. */
    public static final String ROLE_NODE = "node";
    /** The role of the helper that wires links between nodes. */
    public static final String ROLE_WIRING = "wiring";
    /** The role of a User-Mode Linux lab's one container or pod, whose kernel holds every node (listed in NODES). */
    public static final String ROLE_UML = "uml";
    /** The nodes of a User-Mode Linux lab, comma-separated: a label on Docker, an annotation on Kubernetes. */
    public static final String NODES = "tclab.nodes";
    /**
     * On a User-Mode Linux lab's container or pod: the version of the scripts its kernel runs (init, agent, lab.pl),
     * which the app that booted it wrote there. A lab booted by another build cannot be driven by this one.
     */
    public static final String PLATFORM = "tclab.platform";

    private LabelKeys() {}
}
