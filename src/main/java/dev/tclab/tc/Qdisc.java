package dev.tclab.tc;

import java.util.List;
import java.util.Map;

/**
 * One qdisc from {@code tc -s -j qdisc show}.
 *
 * @param kind    e.g. {@code tbf}, {@code htb}, {@code cake}, {@code ingress}, {@code noqueue}
 * @param handle  e.g. {@code 8001:} or {@code 1:}
 * @param parent  {@code root}, {@code ingress}, or the parent class id such as {@code 1:10}
 * @param dev     the device, when tc printed it or the caller named it; else null
 * @param options the qdisc's options exactly as tc's JSON has them (rates in bytes/s, sizes in bytes, times in µs)
 * @param xstats  kind-specific statistics other than the common counters and tins (e.g. CAKE's
 *                {@code memory_used}); empty when there are none
 * @param tins    CAKE's per-tin statistics; empty for other kinds
 */
public record Qdisc(
        String kind,
        String handle,
        String parent,
        String dev,
        Map<String, Object> options,
        QdiscStats stats,
        Map<String, Object> xstats,
        List<CakeTin> tins) {

    public boolean isRoot() {
        return "root".equals(parent);
    }

    public boolean isIngress() {
        return "ingress".equals(parent);
    }
}
