package dev.tclab.grading;

import dev.tclab.lab.ExecResult;
import dev.tclab.tc.ClassParser;
import dev.tclab.tc.TcParseException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@code classes: { dev }}: the classes of a device, read from tc's text (iproute2 6.1 prints no class JSON). */
public record ClassesMeasurement(Common common, String dev) implements Measurement {

    private static final Map<String, Unit> FIELDS = Map.of("all", Unit.NONE, "count", Unit.NONE, "by_id", Unit.NONE,
            Counters.WINDOW, Unit.S);

    /** {@code classes:} as written. */
    public record Options(String dev) {
    }

    static Measurement of(Common common, Options options, OptionReader reader) {
        return new ClassesMeasurement(common, options.dev());
    }

    @Override
    public String kind() {
        return "classes";
    }

    @Override
    public List<String> argv() {
        return List.of("tc", "-s", "class", "show", "dev", dev);
    }

    @Override
    public Duration timeout() {
        return QdiscMeasurement.TC_TIMEOUT;
    }

    @Override
    public MeasurementOutcome read(ExecResult exec) {
        if (exec.exitCode() != 0) {
            return OutputReader.tcRefused(exec);
        }
        try {
            return OutputReader.ok(ResultTrees.classes(ClassParser.parse(exec.stdout())), OutputReader.excerptOfRaw(exec));
        } catch (TcParseException e) {
            return OutputReader.unreadable(OutputReader.excerptOfRaw(exec), e);
        }
    }

    @Override
    public Map<String, Unit> fields() {
        return FIELDS;
    }

    @Override
    public Optional<Unit> unitAt(ValuePath path) {
        return Counters.unitAt(path);
    }

    @Override
    public boolean counters() {
        return true;
    }
}
