package dev.tclab.grading.spec;

import dev.tclab.tc.FilterParser;
import dev.tclab.tc.TcParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@code filters: { dev, parent }}: the filters of a device, from tc's text. */
public record FiltersMeasurement(Common common, String dev, String parent) implements TcMeasurement {

    /** {@code filters:} as written; the schema holds {@code parent} to a handle, root or ingress. */
    public record Options(String dev, String parent) {}

    static Measurement of(Common common, Options options, OptionReader reader) {
        return new FiltersMeasurement(common, options.dev(), options.parent());
    }

    @Override
    public TcKind tcKind() {
        return TcKind.FILTERS;
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
    public Map<String, Object> tree(String stdout) throws TcParseException {
        return ResultTrees.filters(FilterParser.parse(stdout));
    }
}
