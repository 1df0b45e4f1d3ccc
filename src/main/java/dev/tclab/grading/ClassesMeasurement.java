package dev.tclab.grading;

import dev.tclab.tc.ClassParser;
import dev.tclab.tc.TcParseException;
import java.util.List;
import java.util.Map;

/** {@code classes: { dev }}: the classes of a device, read from tc's text (iproute2 6.1 prints no class JSON). */
public record ClassesMeasurement(Common common, String dev) implements TcMeasurement {

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
    public Map<String, Object> tree(String stdout) throws TcParseException {
        return ResultTrees.classes(ClassParser.parse(stdout));
    }

    @Override
    public Map<String, Unit> fields() {
        return FIELDS;
    }

    @Override
    public boolean counters() {
        return true;
    }
}
