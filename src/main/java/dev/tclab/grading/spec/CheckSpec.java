package dev.tclab.grading.spec;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A parsed, validated check (the body of a {@code ```check} block; see docs/checks.md).
 *
 * @param id      the author's id, or null (the lesson then names it {@code <step>-check-<n>})
 * @param record  baseline name to the path of the value to keep for later steps of the same lab
 * @param retries extra samples allowed to fail before the check fails
 * @param stable  consecutive passing samples needed to pass
 */
public record CheckSpec(
        String id,
        String title,
        List<Measurement> measurements,
        List<Assertion> expect,
        Map<String, ValuePath> record,
        int retries,
        int stable,
        Duration interval,
        Duration timeout,
        boolean watch,
        String hint) {

    /**
     * How long its measurements run when it passes at once: {@code stable} samples, one after another with {@code
     * interval} between them, each its measurements' {@link Measurement#runTime} in order (one during a load runs
     * within it).
     */
    public Duration passingTime() {
        return timeOf(stable);
    }

    /**
     * As {@link #passingTime}, at most: each failing sample it allows ({@code retries}) comes after all but one of
     * the passing samples it needs in a row, and resets them.
     */
    public Duration longestTime() {
        return timeOf(stable * (retries + 1));
    }

    private Duration timeOf(int samples) {
        Duration sample = measurements.stream()
                .filter(m -> m.common().during() == null)
                .map(Measurement::runTime)
                .reduce(Duration.ZERO, Duration::plus);
        return sample.multipliedBy(samples).plus(interval.multipliedBy(samples - 1L));
    }

    /** The measurements to run during {@code load}, in order. */
    public List<Measurement> during(String load) {
        return measurements.stream().filter(m -> load.equals(m.during())).toList();
    }

    /** The measurements to read before and after {@code load}, in order. */
    public List<Measurement> over(String load) {
        return measurements.stream().filter(m -> load.equals(m.over())).toList();
    }

    /** The names of the recorded baselines the expectations compare with ({@code ratio_to: baseline.NAME}). */
    public Set<String> baselinesUsed() {
        Set<String> names = new TreeSet<>();
        expect.forEach(a -> collectBaselines(a, names));
        return names;
    }

    private static void collectBaselines(Assertion assertion, Set<String> names) {
        if (assertion instanceof Assertion.Check check) {
            if (check.ratioTo() != null && check.ratioTo().root().equals("baseline")) {
                names.add(check.ratioTo().field());
            }
        } else if (assertion instanceof Assertion.AllOf all) {
            all.children().forEach(c -> collectBaselines(c, names));
        } else if (assertion instanceof Assertion.AnyOf any) {
            any.children().forEach(c -> collectBaselines(c, names));
        }
    }
}
