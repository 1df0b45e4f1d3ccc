package dev.tclab.runtime.kubernetes;

import static dev.tclab.runtime.LabelKeys.APP;
import static dev.tclab.runtime.LabelKeys.EXPIRES;
import static dev.tclab.runtime.LabelKeys.INSTANCE;
import static dev.tclab.runtime.LabelKeys.LAB;
import static dev.tclab.runtime.LabelKeys.LESSON;
import static dev.tclab.runtime.LabelKeys.NODE;
import static dev.tclab.runtime.LabelKeys.OWNER;
import static dev.tclab.runtime.LabelKeys.ROLE;
import static dev.tclab.runtime.LabelKeys.ROLE_NODE;
import static dev.tclab.runtime.LabelKeys.ROLE_UML;
import static dev.tclab.runtime.LabelKeys.ROLE_WIRING;

import dev.tclab.runtime.LabSpec;
import dev.tclab.runtime.LabelKeys;
import dev.tclab.runtime.agent.UmlScripts;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The labels on every pod tclab creates, with the keys every runtime uses ({@link LabelKeys}), so that its pods can
 * always be found and reaped by label, and the node labels the kernel probe publishes.
 */
final class KubeLabels {

    /** Prefix of the node labels that say which kernel features a cluster node has ({@code tclab.dev/qdisc-cake}). */
    static final String FEATURE_PREFIX = "tclab.dev/";

    /** What Kubernetes accepts as a label value; anything else (a long or odd owner id) is replaced by its hash. */
    private static final Pattern VALUE = Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?");

    private KubeLabels() {}

    static Map<String, String> node(String instance, LabSpec spec, String node, Instant expires) {
        Map<String, String> labels = new HashMap<>(lab(instance, spec, ROLE_NODE, expires));
        labels.put(NODE, node);
        return Map.copyOf(labels);
    }

    /**
     * A User-Mode Linux lab's one pod: no node label (its nodes are in an annotation, a label cannot list them), and
     * the version of the scripts its kernel runs, which a server of another build cannot drive.
     */
    static Map<String, String> uml(String instance, LabSpec spec, Instant expires) {
        Map<String, String> labels = new HashMap<>(lab(instance, spec, ROLE_UML, expires));
        labels.put(LabelKeys.PLATFORM, UmlScripts.VERSION);
        return Map.copyOf(labels);
    }

    /** What every pod of a lab carries, whatever its role. */
    private static Map<String, String> lab(String instance, LabSpec spec, String role, Instant expires) {
        return Map.of(
                APP,
                "tclab",
                INSTANCE,
                value(instance),
                ROLE,
                role,
                LAB,
                spec.labId(),
                OWNER,
                value(spec.owner()),
                LESSON,
                value(spec.lesson()),
                EXPIRES,
                Long.toString(expires.getEpochSecond()));
    }

    /** Selector of this instance's User-Mode Linux lab's pod. */
    static Map<String, String> umlOf(String instance, String labId) {
        return Map.of(APP, "tclab", INSTANCE, value(instance), ROLE, ROLE_UML, LAB, labId);
    }

    /** Selector of every User-Mode Linux lab pod of this instance. */
    static Map<String, String> umlInstance(String instance) {
        return Map.of(APP, "tclab", INSTANCE, value(instance), ROLE, ROLE_UML);
    }

    /** Selector of every User-Mode Linux lab pod of any instance (they all carry EXPIRES). */
    static Map<String, String> allUmlPods() {
        return Map.of(APP, "tclab", ROLE, ROLE_UML);
    }

    /** Selector of every pod of this instance's lab. */
    static Map<String, String> labOf(String instance, String labId) {
        return Map.of(APP, "tclab", INSTANCE, value(instance), LAB, labId);
    }

    /** Selector of every lab pod of this instance. */
    static Map<String, String> instance(String instance) {
        return Map.of(APP, "tclab", INSTANCE, value(instance), ROLE, ROLE_NODE);
    }

    /** Selector of every lab pod of any instance (they all carry EXPIRES). */
    static Map<String, String> allLabPods() {
        return Map.of(APP, "tclab", ROLE, ROLE_NODE);
    }

    static Map<String, String> wiring(String helperName) {
        return Map.of(APP, "tclab", ROLE, ROLE_WIRING, "tclab.helper", value(helperName));
    }

    /** The node label for a probed feature: {@code qdisc:cake} becomes {@code tclab.dev/qdisc-cake}. */
    static String feature(String feature) {
        return FEATURE_PREFIX + feature.replace(':', '-');
    }

    static String value(String raw) {
        if (VALUE.matcher(raw).matches()) {
            return raw;
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(raw.getBytes(StandardCharsets.UTF_8));
            return "h-" + HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
