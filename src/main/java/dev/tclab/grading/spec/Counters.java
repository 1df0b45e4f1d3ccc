package dev.tclab.grading.spec;

import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Counters read before and after a load ({@code over: load}): every entry of the later tree that has counters gets
 * {@code delta.<counter>} (the difference), {@code before.<counter>} (what it rose from) and {@code per_second.<counter>}
 * (the difference over the load's seconds; byte counters also as {@code bits}, in bit/s). An entry that did not exist before, or whose counter went
 * down (the learner replaced the qdisc or class, which starts its counters at zero), counts from zero.
 */
public final class Counters {

    public static final String DELTA = "delta";
    static final String PER_SECOND = "per_second";
    /** The counter as read before the load (0 when the entry is new or was replaced): what a delta rose from. */
    public static final String BEFORE = "before";
    /** The length of the window the rates are over, in seconds, at the top of the tree. */
    static final String WINDOW = "window_seconds";

    /** Monotonic counters of qdiscs, classes, CAKE tins and interfaces (gauges such as backlog are not). */
    private static final Set<String> COUNTERS = Set.of(
            "bytes",
            "packets",
            "drops",
            "overlimits",
            "requeues",
            "lended",
            "borrowed",
            "giants",
            "sent_bytes",
            "sent_packets",
            "ecn_mark",
            "ack_drops",
            "rx_bytes",
            "rx_packets",
            "rx_errors",
            "rx_dropped",
            "tx_bytes",
            "tx_packets",
            "tx_errors",
            "tx_dropped");

    private Counters() {}

    /** {@code after} with deltas and per-second rates against {@code before}, over {@code seconds}. */
    public static Map<String, Object> over(Map<String, Object> before, Map<String, Object> after, double seconds) {
        Map<String, Object> tree = new LinkedHashMap<>(after);
        tree.put(WINDOW, new Measure(seconds, Unit.S));
        walk(before, after, seconds, new IdentityHashMap<>());
        return tree;
    }

    /** Adds deltas to every map below {@code after}, matched to the same key or index in {@code before}. */
    private static void walk(Object before, Object after, double seconds, IdentityHashMap<Object, Boolean> seen) {
        if (seen.put(after, Boolean.TRUE) != null) {
            return; // the same entry is under `all` and `by_id`: once is enough
        }
        if (after instanceof Map<?, ?> map) {
            @SuppressWarnings("unchecked")
            Map<String, Object> entry = (Map<String, Object>) map;
            Map<?, ?> old = before instanceof Map<?, ?> m ? m : Map.of();
            List<Map.Entry<String, Object>> children = List.copyOf(entry.entrySet());
            addDeltas(old, entry, seconds);
            for (Map.Entry<String, Object> e : children) {
                if (e.getValue() instanceof Map<?, ?> || e.getValue() instanceof List<?>) {
                    walk(old.get(e.getKey()), e.getValue(), seconds, seen);
                }
            }
        } else if (after instanceof List<?> list) {
            List<?> old = before instanceof List<?> l ? l : List.of();
            for (int i = 0; i < list.size(); i++) {
                walk(i < old.size() ? old.get(i) : null, list.get(i), seconds, seen);
            }
        }
    }

    private static void addDeltas(Map<?, ?> before, Map<String, Object> after, double seconds) {
        Map<String, Object> delta = new LinkedHashMap<>();
        Map<String, Object> from = new LinkedHashMap<>();
        Map<String, Object> perSecond = new LinkedHashMap<>();
        after.forEach((key, value) -> {
            if (COUNTERS.contains(key) && value instanceof Measure now) {
                double then = before.get(key) instanceof Measure m ? m.value() : 0;
                double start = now.value() >= then ? then : 0;
                double d = now.value() - start;
                delta.put(key, new Measure(d, now.unit()));
                from.put(key, new Measure(start, now.unit()));
                double rate = seconds > 0 ? d / seconds : 0;
                boolean bytes = key.endsWith("bytes");
                perSecond.put(key, new Measure(rate, bytes ? Unit.BYTE_PER_S : Unit.NONE));
                if (bytes) {
                    perSecond.put(
                            key.substring(0, key.length() - "bytes".length()) + "bits",
                            new Measure(rate * 8, Unit.BIT_PER_S));
                }
            }
        });
        if (!delta.isEmpty()) {
            after.put(DELTA, delta);
            after.put(BEFORE, from);
            after.put(PER_SECOND, perSecond);
        }
    }

    /** Whether a value path reads a delta or a per-second rate (only measurements read {@code over} a load have them). */
    static boolean readsDelta(ValuePath path) {
        return path.segments().contains(DELTA)
                || path.segments().contains(PER_SECOND)
                || path.segments().contains(BEFORE);
    }

    /**
     * The unit of a value in a counter tree, by its key wherever it sits (tc names its fields the same everywhere),
     * and under {@code per_second} as a rate.
     */
    static Optional<Unit> unitAt(ValuePath path) {
        String key = lastKey(path);
        if (path.segments().size() == 2 && key.equals(WINDOW)) {
            return Optional.of(Unit.S);
        }
        if (path.segments().contains(PER_SECOND)) {
            return Optional.of(
                    key.endsWith("bits") ? Unit.BIT_PER_S : key.endsWith("bytes") ? Unit.BYTE_PER_S : Unit.NONE);
        }
        // An interface's rx_bytes and tx_bytes are sizes like tc's bytes.
        return Optional.of(key.endsWith("_bytes") ? Unit.BYTES : ResultTrees.unitOfKey(key));
    }

    /** The last key of a path, list indexes skipped: {@code rate} for {@code j.json.rate[0]}. */
    static String lastKey(ValuePath path) {
        List<String> keys =
                path.segments().stream().skip(1).filter(s -> !s.matches("\\d+")).toList();
        return keys.get(keys.size() - 1);
    }
}
