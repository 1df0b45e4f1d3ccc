package dev.tclab.grading;

import dev.tclab.lab.ExecResult;
import dev.tclab.tc.FilterParser;
import dev.tclab.tc.TcParseException;
import dev.tclab.yaml.YamlNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/** {@code filters: { dev, parent }}: the filters of a device, from tc's text. */
public record FiltersMeasurement(Common common, String dev, String parent) implements Measurement {

    private static final Pattern TC_HANDLE = Pattern.compile("[0-9a-fA-F]{1,4}:[0-9a-fA-F]{0,4}|root|ingress");
    private static final Map<String, Unit> FIELDS = Map.of("all", Unit.NONE, "rules", Unit.NONE, "count", Unit.NONE,
            "redirect_dev", Unit.NONE);

    static Measurement read(Common common, YamlNode entry, OptionReader options) {
        YamlNode o = options.mapping(entry.get("filters"), "filters", List.of("dev", "parent"), false);
        if (o == null) {
            return null;
        }
        String dev = options.iface(o, true);
        String parent = options.text(o, "parent");
        options.checks().require(o.get("parent"), parent, TC_HANDLE.asMatchPredicate(),
                "a parent is a handle such as 'ffff:' or '1:', or root/ingress");
        return dev == null ? null : new FiltersMeasurement(common, dev, parent);
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
