package dev.tclab.grading;

import dev.tclab.tc.QdiscParser;
import dev.tclab.tc.TcParseException;
import java.util.List;
import java.util.Map;

/** {@code qdisc: { dev }}: the qdiscs of one device (or all), from tc's JSON. */
public record QdiscMeasurement(Common common, String dev) implements TcMeasurement {

    private static final Map<String, Unit> FIELDS = Map.of("root", Unit.NONE, "ingress", Unit.NONE, "all", Unit.NONE,
            "count", Unit.NONE, "by_handle", Unit.NONE, "by_parent", Unit.NONE, Counters.WINDOW, Unit.S);

    /** {@code qdisc:} as written; absent ({@code qdisc:} alone) reads every device. */
    public record Options(String dev) {
    }

    static Measurement of(Common common, Options options, OptionReader reader) {
        return new QdiscMeasurement(common, options == null ? null : options.dev());
    }

    @Override
    public String kind() {
        return "qdisc";
    }

    @Override
    public List<String> argv() {
        return dev == null ? List.of("tc", "-s", "-j", "qdisc", "show") : List.of("tc", "-s", "-j", "qdisc", "show", "dev", dev);
    }

    @Override
    public Map<String, Object> tree(String stdout) throws TcParseException {
        return ResultTrees.qdiscs(QdiscParser.parseJson(stdout, dev));
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
