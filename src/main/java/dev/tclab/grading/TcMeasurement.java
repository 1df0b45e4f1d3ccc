package dev.tclab.grading;

import dev.tclab.lab.runtime.ExecResult;
import dev.tclab.tc.TcParseException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The kinds that read tc's view of a device ({@code qdisc}, {@code classes}, {@code filters}): the same timeout, the
 * same handling of a refusal or unreadable output, and the same units for counters. Each kind keeps only its command
 * line, its fields and how its output becomes a value tree.
 */
public sealed interface TcMeasurement extends Measurement permits QdiscMeasurement, ClassesMeasurement,
        FiltersMeasurement {

    Duration TC_TIMEOUT = Duration.ofSeconds(15);

    /** The value tree of tc's output, which exited 0. */
    Map<String, Object> tree(String stdout) throws TcParseException;

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
