package dev.tclab.lab.kubernetes;

import dev.tclab.lab.runtime.LabSpec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The labels on every pod tclab creates, with the same keys as the Docker runtime's container labels, so that its
 * pods can always be found and reaped by label, and the node labels the kernel probe publishes.
 */
final class KubeLabels {

    static final String APP = "tclab.app";
    static final String INSTANCE = "tclab.instance";
    static final String LAB = "tclab.lab";
    static final String OWNER = "tclab.owner";
    static final String LESSON = "tclab.lesson";
    static final String NODE = "tclab.node";
    static final String ROLE = "tclab.role";
    /** When a lab pod is an orphan for sure, in epoch seconds: no live app keeps a lab that long. */
    static final String EXPIRES = "tclab.expires";

    static final String ROLE_NODE = "node";
    static final String ROLE_WIRING = "wiring";

    /** Prefix of the node labels that say which kernel features a cluster node has ({@code tclab.dev/qdisc-cake}). */
    static final String FEATURE_PREFIX = "tclab.dev/";

    /** What Kubernetes accepts as a label value; anything else (a long or odd owner id) is replaced by its hash. */
    private static final Pattern VALUE = Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?");

    private KubeLabels() {
    }

    static Map<String, String> node(String instance, LabSpec spec, String node, Instant expires) {
        return Map.of(APP, "tclab", INSTANCE, value(instance), ROLE, ROLE_NODE, LAB, spec.labId(),
                OWNER, value(spec.owner()), LESSON, value(spec.lesson()), NODE, node,
                EXPIRES, Long.toString(expires.getEpochSecond()));
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
