package dev.tclab.grading;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A parsed, validated check (the body of a {@code ```check} block; see docs/checks.md).
 *
 * @param id      the author's id, or null (the lesson then names it {@code <step>-check-<n>})
 * @param record  baseline name to the path of the value to keep for later steps of the same lab
 * @param retries extra samples allowed to fail before the check fails
 * @param stable  consecutive passing samples needed to pass
 */
public record CheckSpec(String id, String title, List<Measurement> measurements, List<Assertion> expect,
                        Map<String, ValuePath> record, int retries, int stable, Duration interval, Duration timeout,
                        boolean watch, String hint) {

    /** The measurements to run during {@code load}, in order. */
    public List<Measurement> during(String load) {
        return measurements.stream().filter(m -> load.equals(m.during())).toList();
    }
}
