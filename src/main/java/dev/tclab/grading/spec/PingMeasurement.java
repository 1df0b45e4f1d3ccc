package dev.tclab.grading.spec;

import dev.tclab.grading.parse.OutputParseException;
import dev.tclab.grading.parse.PingParser;
import dev.tclab.runtime.ExecResult;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@code ping: { target, count, interval }}: round-trip times and loss, e.g. under a load ({@code during}). */
public record PingMeasurement(Common common, String target, int count, double interval) implements Measurement {

    private static final Map<String, Unit> FIELDS = Map.of(
            "transmitted",
            Unit.NONE,
            "received",
            Unit.NONE,
            "loss_pct",
            Unit.PERCENT,
            "min_ms",
            Unit.MS,
            "avg_ms",
            Unit.MS,
            "max_ms",
            Unit.MS,
            "mdev_ms",
            Unit.MS);

    /** {@code ping:} as written (docs/schema/check.schema.json, $defs/ping). */
    public record Options(String target, Integer count, Double interval) {}

    static Measurement of(Common common, Options options, OptionReader reader) {
        String target = reader.address("target", options.target());
        return target == null
                ? null
                : new PingMeasurement(
                        common,
                        target,
                        options.count() == null ? 10 : options.count(),
                        options.interval() == null ? 0.2 : options.interval());
    }

    @Override
    public String kind() {
        return "ping";
    }

    /** How long the pings take: they must end before a load they run during. */
    public double seconds() {
        return count * interval;
    }

    @Override
    public List<String> argv() {
        // -w ends ping even when replies stop coming, so a dead link fails the check instead of hanging it.
        long deadline = (long) Math.ceil(seconds()) + 2;
        return List.of(
                "ping",
                "-q",
                "-c",
                String.valueOf(count),
                "-i",
                java.math.BigDecimal.valueOf(interval).stripTrailingZeros().toPlainString(),
                "-w",
                String.valueOf(deadline),
                target);
    }

    @Override
    public Duration timeout() {
        return Duration.ofSeconds((long) Math.ceil(seconds()) + 10);
    }

    @Override
    public Duration runTime() {
        return Duration.ofMillis(Math.round(seconds() * 1000));
    }

    @Override
    public MeasurementOutcome read(ExecResult exec) {
        String raw = OutputReader.excerptOfRaw(exec);
        if (exec.exitCode() > 1) {
            return OutputReader.failed(raw, "ping could not run: " + OutputReader.firstLine(exec));
        }
        try {
            var r = PingParser.parse(exec.stdout());
            Map<String, Object> tree = new LinkedHashMap<>();
            tree.put("transmitted", new Measure(r.transmitted(), Unit.NONE));
            tree.put("received", new Measure(r.received(), Unit.NONE));
            tree.put("loss_pct", new Measure(r.lossPercent(), Unit.PERCENT));
            putMs(tree, "min_ms", r.minMs());
            putMs(tree, "avg_ms", r.avgMs());
            putMs(tree, "max_ms", r.maxMs());
            putMs(tree, "mdev_ms", r.mdevMs());
            return OutputReader.ok(tree, raw);
        } catch (OutputParseException e) {
            return OutputReader.unreadable(raw, e);
        }
    }

    private static void putMs(Map<String, Object> tree, String key, Double ms) {
        if (ms != null) {
            tree.put(key, new Measure(ms, Unit.MS));
        }
    }

    @Override
    public Map<String, Unit> fields() {
        return FIELDS;
    }

    @Override
    public Optional<Unit> unitAt(ValuePath path) {
        return path.segments().size() == 2 ? Optional.ofNullable(FIELDS.get(path.field())) : Optional.empty();
    }
}
