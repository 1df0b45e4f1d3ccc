package dev.tclab.grading.evaluate;

import dev.tclab.grading.spec.Measure;
import dev.tclab.grading.spec.ValuePath;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The values one sample measured, by measurement name, plus the lab's recorded baselines. Leaves are
 * {@link Measure}s (numbers with units), strings and booleans; inner nodes are maps and lists.
 */
public final class Values {

    /**
     * The error of a measurement skipped because what its check reads first already fails (see
     * {@code run.CheapFirst}).
     */
    public static final String SKIPPED = "skipped, since what the check reads first already fails";

    private final Map<String, Object> results;
    private final Map<String, Measure> baselines;
    private final Map<String, String> errors;

    /**
     * @param errors why a measurement has no values (iperf3's error, a command that failed, output that could
     *               not be read), by measurement name
     */
    public Values(Map<String, Object> results, Map<String, Measure> baselines, Map<String, String> errors) {
        this.results = results;
        this.baselines = baselines;
        this.errors = errors;
    }

    /** Why the measurement named {@code name} produced no (or partial) values, if it failed. */
    public Optional<String> error(String name) {
        return Optional.ofNullable(errors.get(name));
    }

    /** The value at {@code path}, or empty when any step of the path is missing. */
    public Optional<Object> get(ValuePath path) {
        if (path.root().equals("baseline")) {
            return path.segments().size() == 2 ? Optional.ofNullable(baselines.get(path.field())) : Optional.empty();
        }
        Object node = results.get(path.root());
        for (String segment : path.segments().subList(1, path.segments().size())) {
            node = step(node, segment);
            if (node == null) {
                return Optional.empty();
            }
        }
        return Optional.ofNullable(node);
    }

    private static Object step(Object node, String segment) {
        if (node instanceof Map<?, ?> map) {
            return map.get(segment);
        }
        if (node instanceof List<?> list && segment.matches("\\d+")) {
            int index = Integer.parseInt(segment);
            return index < list.size() ? list.get(index) : null;
        }
        return null;
    }

    public Map<String, Object> results() {
        return results;
    }
}
