package dev.tclab.grading.spec;

import dev.tclab.runtime.ExecResult;
import dev.tclab.tc.TcParseException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The kinds that read tc's view of a device ({@code qdisc}, {@code classes}, {@code filters}): the same timeout, the
 * same handling of a refusal or unreadable output, the same units for counters, and their keys and fields listed
 * side by side in {@link TcKind}. Each kind keeps only its options, its command line and how its output becomes a
 * value tree.
 */
public sealed interface TcMeasurement extends Measurement
        permits QdiscMeasurement, ClassesMeasurement, FiltersMeasurement {

    Duration TC_TIMEOUT = Duration.ofSeconds(15);

    /** A tc kind's YAML key and the top-level fields of its result. */
    enum TcKind {
        QDISC(
                "qdisc",
                Map.of(
                        "root",
                        Unit.NONE,
                        "ingress",
                        Unit.NONE,
                        "all",
                        Unit.NONE,
                        "count",
                        Unit.NONE,
                        "by_handle",
                        Unit.NONE,
                        "by_parent",
                        Unit.NONE,
                        Counters.WINDOW,
                        Unit.S)),
        CLASSES("classes", Map.of("all", Unit.NONE, "count", Unit.NONE, "by_id", Unit.NONE, Counters.WINDOW, Unit.S)),
        FILTERS("filters", Map.of("all", Unit.NONE, "rules", Unit.NONE, "count", Unit.NONE, "redirect_dev", Unit.NONE));

        private final String key;
        private final Map<String, Unit> fields;

        TcKind(String key, Map<String, Unit> fields) {
            this.key = key;
            this.fields = fields;
        }
    }

    /** Which tc kind it is. */
    TcKind tcKind();

    /** The value tree of tc's output, which exited 0. */
    Map<String, Object> tree(String stdout) throws TcParseException;

    @Override
    default String kind() {
        return tcKind().key;
    }

    @Override
    default Map<String, Unit> fields() {
        return tcKind().fields;
    }

    @Override
    default Duration timeout() {
        return TC_TIMEOUT;
    }

    @Override
    default MeasurementOutcome read(ExecResult exec) {
        if (exec.exitCode() != 0) {
            return OutputReader.tcRefused(exec);
        }
        try {
            return OutputReader.ok(tree(exec.stdout()), OutputReader.excerptOfRaw(exec));
        } catch (TcParseException e) {
            return OutputReader.unreadable(OutputReader.excerptOfRaw(exec), e);
        }
    }

    @Override
    default Optional<Unit> unitAt(ValuePath path) {
        return Counters.unitAt(path);
    }
}
