package dev.tclab.grading;

import dev.tclab.lab.ExecResult;
import dev.tclab.tc.FilterParser;
import dev.tclab.tc.TcParseException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@code filters: { dev, parent }}: the filters of a device, from tc's text. */
public record FiltersMeasurement(Common common, String dev, String parent) implements Measurement {

    private static final Map<String, Unit> FIELDS = Map.of("all", Unit.NONE, "rules", Unit.NONE, "count", Unit.NONE,
            "redirect_dev", Unit.NONE);

    /** {@code filters:} as written; the schema holds {@code parent} to a handle, root or ingress. */
    public record Options(String dev, String parent) {
    }

    static Measurement of(Common common, Options options, OptionReader reader) {
        return new FiltersMeasurement(common, options.dev(), options.parent());
    }

    @Override
    public String kind() {
        return "filters";
    }

    @Override
    public List<String> argv() {
        List<String> argv = new ArrayList<>(List.of("tc", "-s", "filter", "show", "dev", dev));
        if (parent != null) {
            argv.addAll(List.of("parent", parent));
        }
        return argv;
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
            return OutputReader.ok(ResultTrees.filters(FilterParser.parse(exec.stdout())), OutputReader.excerptOfRaw(exec));
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
}
