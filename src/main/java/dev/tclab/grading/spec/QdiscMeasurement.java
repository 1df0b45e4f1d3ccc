package dev.tclab.grading.spec;

import dev.tclab.tc.QdiscParser;
import dev.tclab.tc.TcParseException;
import java.util.List;
import java.util.Map;

/** {@code qdisc: { dev }}: the qdiscs of one device (or all), from tc's JSON. */
public record QdiscMeasurement(Common common, String dev) implements TcMeasurement {

    /** {@code qdisc:} as written; absent ({@code qdisc:} alone) reads every device. */
    public record Options(String dev) {}

    static Measurement of(Common common, Options options, OptionReader reader) {
        return new QdiscMeasurement(common, options == null ? null : options.dev());
    }

    @Override
    public TcKind tcKind() {
        return TcKind.QDISC;
    }

    @Override
    public List<String> argv() {
        return dev == null
                ? List.of("tc", "-s", "-j", "qdisc", "show")
                : List.of("tc", "-s", "-j", "qdisc", "show", "dev", dev);
    }

    @Override
    public Map<String, Object> tree(String stdout) throws TcParseException {
        return ResultTrees.qdiscs(QdiscParser.parseJson(stdout, dev));
    }
}
