package dev.tclab.grading;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a check can measure, the options each kind takes, and the fields its result has (for validating value paths
 * and for converting units). Kinds whose results hold a tree (qdisc, classes, filters, command) list their top-level
 * fields; what lies below depends on the lab.
 */
public enum MeasurementKind {
    IPERF3("iperf3", List.of("server", "seconds", "reverse", "udp", "bitrate"), true, Map.of(
            "mbps", Unit.MBIT_PER_S, "bits_per_second", Unit.BIT_PER_S, "sent_bits_per_second", Unit.BIT_PER_S,
            "retransmits", Unit.NONE, "seconds", Unit.S, "bytes", Unit.BYTES, "lost_percent", Unit.PERCENT,
            "jitter_ms", Unit.MS, "error", Unit.NONE)),
    PING("ping", List.of("target", "count", "interval"), false, Map.of(
            "transmitted", Unit.NONE, "received", Unit.NONE, "loss_pct", Unit.PERCENT, "min_ms", Unit.MS,
            "avg_ms", Unit.MS, "max_ms", Unit.MS, "mdev_ms", Unit.MS)),
    QDISC("qdisc", List.of("dev"), false, Map.of("root", Unit.NONE, "ingress", Unit.NONE, "all", Unit.NONE,
            "count", Unit.NONE, "by_handle", Unit.NONE, "by_parent", Unit.NONE)),
    CLASSES("classes", List.of("dev"), false, Map.of("all", Unit.NONE, "count", Unit.NONE, "by_id", Unit.NONE)),
    FILTERS("filters", List.of("dev", "parent"), false, Map.of("all", Unit.NONE, "rules", Unit.NONE,
            "count", Unit.NONE, "redirect_dev", Unit.NONE)),
    COMMAND("command", List.of("parse", "regex", "unit"), false, Map.of("exit_code", Unit.NONE, "ok", Unit.NONE,
            "stdout", Unit.NONE, "stderr", Unit.NONE, "json", Unit.NONE, "match", Unit.NONE, "matched", Unit.NONE,
            "interfaces", Unit.NONE));

    private final String key;
    private final List<String> options;
    private final boolean load;
    private final Map<String, Unit> fields;

    MeasurementKind(String key, List<String> options, boolean load, Map<String, Unit> fields) {
        this.key = key;
        this.options = options;
        this.load = load;
        this.fields = fields;
    }

    /** The YAML key that introduces this kind in a {@code measure} entry. */
    public String key() {
        return key;
    }

    public List<String> options() {
        return options;
    }

    /** Whether it loads the link (counts against the host's measurement slots; other measurements may run during it). */
    public boolean load() {
        return load;
    }

    /** Whether the platform runs tc for it (a non-zero exit then means tc refused, e.g. no such device). */
    public boolean isTc() {
        return this == QDISC || this == CLASSES || this == FILTERS;
    }

    public Map<String, Unit> fields() {
        return fields;
    }

    /** The unit of a top-level field whose unit is fixed (iperf3 and ping fields), if known. */
    public Optional<Unit> unitOf(String field) {
        return this == IPERF3 || this == PING ? Optional.ofNullable(fields.get(field)) : Optional.empty();
    }

    public static Optional<MeasurementKind> byKey(String key) {
        for (MeasurementKind kind : values()) {
            if (kind.key.equals(key)) {
                return Optional.of(kind);
            }
        }
        return Optional.empty();
    }
}
