package dev.tclab.grading.spec;

import dev.tclab.grading.parse.IpInterface;
import dev.tclab.tc.CakeTin;
import dev.tclab.tc.FilterAction;
import dev.tclab.tc.Qdisc;
import dev.tclab.tc.TcClass;
import dev.tclab.tc.TcFilter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns parsed outputs into the value trees that check paths address (field names as in docs/checks.md). Numbers
 * become {@link Measure}s carrying their unit, so authors can write {@code below: 50ms} or {@code near: 10mbit}.
 */
final class ResultTrees {

    /** tc JSON option and statistic names whose unit is known. */
    private static final Set<String> RATE_KEYS =
            Set.of("rate", "peakrate", "ceil", "bandwidth", "capacity_estimate", "threshold_rate");

    private static final Set<String> SIZE_KEYS = Set.of(
            "burst",
            "cburst",
            "mtu",
            "bytes",
            "backlog",
            "memory_used",
            "memory_limit",
            "memlimit",
            "sent_bytes",
            "backlog_bytes",
            "max_pkt_len",
            "maxpacket",
            "quantum",
            "flow_quantum");
    private static final Set<String> MICROSECOND_KEYS = Set.of("lat", "rtt", "target", "interval", "ce_threshold");

    private ResultTrees() {}

    static Map<String, Object> qdiscs(List<Qdisc> qdiscs) {
        Map<String, Object> tree = new LinkedHashMap<>();
        List<Object> all = new ArrayList<>();
        Map<String, Object> byHandle = new LinkedHashMap<>();
        Map<String, Object> byParent = new LinkedHashMap<>();
        for (Qdisc q : qdiscs) {
            Map<String, Object> node = qdisc(q);
            all.add(node);
            byHandle.putIfAbsent(q.handle(), node);
            byParent.putIfAbsent(q.parent(), node);
            if (q.isRoot()) {
                tree.putIfAbsent("root", node);
            }
            if (q.isIngress()) {
                tree.putIfAbsent("ingress", node);
            }
        }
        tree.put("all", all);
        tree.put("count", new Measure(qdiscs.size(), Unit.NONE));
        tree.put("by_handle", byHandle);
        tree.put("by_parent", byParent);
        return tree;
    }

    private static Map<String, Object> qdisc(Qdisc q) {
        Map<String, Object> node = new LinkedHashMap<>();
        node.put("kind", q.kind());
        node.put("handle", q.handle());
        node.put("parent", q.parent());
        if (q.dev() != null) {
            node.put("dev", q.dev());
        }
        node.put("options", convert(q.options()));
        node.putAll(convert(q.xstats()));
        node.put("bytes", new Measure(q.stats().bytes(), Unit.BYTES));
        node.put("packets", new Measure(q.stats().packets(), Unit.NONE));
        node.put("drops", new Measure(q.stats().drops(), Unit.NONE));
        node.put("overlimits", new Measure(q.stats().overlimits(), Unit.NONE));
        node.put("requeues", new Measure(q.stats().requeues(), Unit.NONE));
        node.put("backlog", new Measure(q.stats().backlogBytes(), Unit.BYTES));
        node.put("qlen", new Measure(q.stats().qlen(), Unit.NONE));
        if (!q.tins().isEmpty()) {
            node.put("tins", q.tins().stream().map(ResultTrees::tin).toList());
        }
        return node;
    }

    private static Map<String, Object> tin(CakeTin t) {
        Map<String, Object> node = new LinkedHashMap<>();
        node.put("threshold_rate", new Measure(t.thresholdRateBytesPerSecond(), Unit.BYTE_PER_S));
        node.put("sent_bytes", new Measure(t.sentBytes(), Unit.BYTES));
        node.put("sent_packets", new Measure(t.sentPackets(), Unit.NONE));
        node.put("backlog_bytes", new Measure(t.backlogBytes(), Unit.BYTES));
        node.put("target_us", new Measure(t.targetUs(), Unit.US));
        node.put("interval_us", new Measure(t.intervalUs(), Unit.US));
        node.put("peak_delay_us", new Measure(t.peakDelayUs(), Unit.US));
        node.put("avg_delay_us", new Measure(t.avgDelayUs(), Unit.US));
        node.put("base_delay_us", new Measure(t.baseDelayUs(), Unit.US));
        node.put("drops", new Measure(t.drops(), Unit.NONE));
        node.put("ecn_mark", new Measure(t.ecnMarks(), Unit.NONE));
        node.put("ack_drops", new Measure(t.ackDrops(), Unit.NONE));
        node.put("sparse_flows", new Measure(t.sparseFlows(), Unit.NONE));
        node.put("bulk_flows", new Measure(t.bulkFlows(), Unit.NONE));
        node.put("unresponsive_flows", new Measure(t.unresponsiveFlows(), Unit.NONE));
        node.put("max_pkt_len", new Measure(t.maxPacketLength(), Unit.BYTES));
        node.put("flow_quantum", new Measure(t.flowQuantum(), Unit.BYTES));
        return node;
    }

    static Map<String, Object> classes(List<TcClass> classes) {
        Map<String, Object> tree = new LinkedHashMap<>();
        List<Object> all = new ArrayList<>();
        Map<String, Object> byId = new LinkedHashMap<>();
        for (TcClass c : classes) {
            Map<String, Object> node = new LinkedHashMap<>();
            node.put("kind", c.kind());
            node.put("classid", c.classId());
            putText(node, "parent", c.parent());
            putText(node, "leaf", c.leaf());
            putNumber(node, "prio", c.prio(), Unit.NONE);
            putNumber(node, "quantum", c.quantum(), Unit.BYTES);
            putNumber(node, "rate", c.rateBitsPerSecond(), Unit.BIT_PER_S);
            putNumber(node, "ceil", c.ceilBitsPerSecond(), Unit.BIT_PER_S);
            putNumber(node, "burst", c.burstBytes(), Unit.BYTES);
            putNumber(node, "cburst", c.cburstBytes(), Unit.BYTES);
            node.put("bytes", new Measure(c.stats().bytes(), Unit.BYTES));
            node.put("packets", new Measure(c.stats().packets(), Unit.NONE));
            node.put("drops", new Measure(c.stats().drops(), Unit.NONE));
            node.put("overlimits", new Measure(c.stats().overlimits(), Unit.NONE));
            node.put("requeues", new Measure(c.stats().requeues(), Unit.NONE));
            node.put("backlog", new Measure(c.stats().backlogBytes(), Unit.BYTES));
            node.put("qlen", new Measure(c.stats().qlen(), Unit.NONE));
            putNumber(node, "lended", c.lended(), Unit.NONE);
            putNumber(node, "borrowed", c.borrowed(), Unit.NONE);
            putNumber(node, "giants", c.giants(), Unit.NONE);
            putNumber(node, "tokens", c.tokens(), Unit.NONE);
            putNumber(node, "ctokens", c.ctokens(), Unit.NONE);
            all.add(node);
            byId.putIfAbsent(c.classId(), node);
        }
        tree.put("all", all);
        tree.put("count", new Measure(classes.size(), Unit.NONE));
        tree.put("by_id", byId);
        return tree;
    }

    static Map<String, Object> filters(List<TcFilter> filters) {
        Map<String, Object> tree = new LinkedHashMap<>();
        List<Object> all = new ArrayList<>();
        List<Object> rules = new ArrayList<>();
        for (TcFilter f : filters) {
            Map<String, Object> node = new LinkedHashMap<>();
            node.put("kind", f.kind());
            putText(node, "parent", f.parent());
            putText(node, "protocol", f.protocol());
            node.put("pref", new Measure(f.pref(), Unit.NONE));
            putText(node, "handle", f.handle());
            putText(node, "flowid", f.flowid());
            node.put("matches", List.copyOf(f.matches()));
            node.put("actions", f.actions().stream().map(ResultTrees::action).toList());
            putText(node, "redirect_dev", f.redirectDev());
            all.add(node);
            if (f.isRule()) {
                rules.add(node);
                if (f.redirectDev() != null) {
                    tree.putIfAbsent("redirect_dev", f.redirectDev());
                }
            }
        }
        tree.put("all", all);
        tree.put("rules", rules);
        tree.put("count", new Measure(rules.size(), Unit.NONE));
        return tree;
    }

    private static Map<String, Object> action(FilterAction a) {
        Map<String, Object> node = new LinkedHashMap<>();
        node.put("order", new Measure(a.order(), Unit.NONE));
        node.put("kind", a.kind());
        putText(node, "direction", a.direction());
        putText(node, "verb", a.verb());
        putText(node, "dev", a.targetDev());
        putText(node, "control", a.control());
        return node;
    }

    static Map<String, Object> interfaces(List<IpInterface> interfaces) {
        Map<String, Object> byName = new LinkedHashMap<>();
        for (IpInterface i : interfaces) {
            Map<String, Object> node = new LinkedHashMap<>();
            node.put("mtu", new Measure(i.mtu(), Unit.BYTES));
            putText(node, "qdisc", i.qdisc());
            putText(node, "operstate", i.operstate());
            node.put("up", i.up());
            putText(node, "mac", i.mac());
            node.put("addresses", List.copyOf(i.addresses()));
            i.addresses().stream().filter(a -> a.contains(".")).findFirst().ifPresent(a -> node.put("ipv4", a));
            byName.put(i.name(), node);
        }
        return byName;
    }

    /** tc or command JSON as a tree; numbers under known tc keys get their unit, other numbers none. */
    static Map<String, Object> convert(Map<String, Object> json) {
        Map<String, Object> out = new LinkedHashMap<>();
        json.forEach((key, value) -> out.put(key, convertValue(key, value)));
        return out;
    }

    @SuppressWarnings("unchecked")
    static Object convertValue(String key, Object value) {
        if (value instanceof Map<?, ?> map) {
            return convert((Map<String, Object>) map);
        }
        if (value instanceof List<?> list) {
            return list.stream().map(v -> convertValue(key, v)).toList();
        }
        if (value instanceof Number n) {
            return new Measure(n.doubleValue(), unitOfKey(key));
        }
        return value;
    }

    /** The unit of a number under a tc JSON key ({@code rate} is in bytes/s), or none. */
    static Unit unitOfKey(String key) {
        if (RATE_KEYS.contains(key)) {
            return Unit.BYTE_PER_S;
        }
        if (SIZE_KEYS.contains(key)) {
            return Unit.BYTES;
        }
        if (MICROSECOND_KEYS.contains(key) || key.endsWith("_us")) {
            return Unit.US;
        }
        return Unit.NONE;
    }

    private static void putText(Map<String, Object> node, String key, String value) {
        if (value != null) {
            node.put(key, value);
        }
    }

    private static void putNumber(Map<String, Object> node, String key, Number value, Unit unit) {
        if (value != null) {
            node.put(key, new Measure(value.doubleValue(), unit));
        }
    }
}
