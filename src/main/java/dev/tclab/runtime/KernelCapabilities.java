package dev.tclab.runtime;

import java.util.Map;
import java.util.TreeMap;

/**
 * What the Docker host's kernel supports, probed once: feature name (e.g. {@code qdisc:cake},
 * {@code classifier:matchall}, {@code link:ifb}, {@code action:mirred}) to supported or not.
 */
public record KernelCapabilities(Map<String, Boolean> features, String kernel, String mode) {

    public KernelCapabilities {
        features = new TreeMap<>(features);
    }

    /** A host's kernel, which runs processes natively: no mode. */
    public KernelCapabilities(Map<String, Boolean> features, String kernel) {
        this(features, kernel, null);
    }

    /** The same kernel, known to run its processes in {@code mode} (a User-Mode Linux kernel: seccomp or ptrace). */
    public KernelCapabilities inMode(String mode) {
        return new KernelCapabilities(features, kernel, mode);
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
