package dev.tclab.grading;

import java.util.Map;

/**
 * One entry of a check's {@code measure} list, validated.
 *
 * @param options the kind's options as written ({@code server}, {@code seconds}, ...; for {@code command}: the
 *                command line under {@code command}, plus {@code parse} and {@code regex})
 * @param during  the name of an earlier load measurement this one runs during, or null
 */
public record Measurement(String name, String node, MeasurementKind kind, Map<String, String> options, String during) {

    public String option(String key, String fallback) {
        return options.getOrDefault(key, fallback);
    }
}
