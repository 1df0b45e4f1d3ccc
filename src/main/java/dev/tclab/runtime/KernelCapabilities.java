package dev.tclab.runtime;

import java.util.Map;
import java.util.TreeMap;

/**
 * What the Docker host's kernel supports, probed once: feature name (e.g. {@code qdisc:cake},
 * {@code classifier:matchall}, {@code link:ifb}, {@code action:mirred}) to supported or not.
 */
public record KernelCapabilities(Map<String, Boolean> features, String kernel) {

    public KernelCapabilities {
        features = new TreeMap<>(features);
    }

    public static KernelCapabilities unknown() {
        return new KernelCapabilities(Map.of(), "unknown");
    }

    /** True only when the feature was probed and works. */
    public boolean supports(String feature) {
        return Boolean.TRUE.equals(features.get(feature));
    }

    public boolean probed() {
        return !features.isEmpty();
    }
}
