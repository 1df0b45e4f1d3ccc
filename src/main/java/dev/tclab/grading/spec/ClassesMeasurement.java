package dev.tclab.grading.spec;

import dev.tclab.tc.ClassParser;
import dev.tclab.tc.TcParseException;
import java.util.List;
import java.util.Map;

/** {@code classes: { dev }}: the classes of a device, read from tc's text (iproute2 6.1 prints no class JSON). */
public record ClassesMeasurement(Common common, String dev) implements TcMeasurement {

    /** {@code classes:} as written. */
    public record Options(String dev) {}

    static Measurement of(Common common, Options options, OptionReader reader) {
        return new ClassesMeasurement(common, options.dev());
    }

    @Override
    public TcKind tcKind() {
        return TcKind.CLASSES;
    }

    @Override
    public List<String> argv() {
        return List.of("tc", "-s", "class", "show", "dev", dev);
    }

    @Override
    public Map<String, Object> tree(String stdout) throws TcParseException {
        return ResultTrees.classes(ClassParser.parse(stdout));
    }
}
