package dev.tclab.grading.parse;

import java.util.List;

/**
 * One interface from {@code ip -j addr show} or {@code ip -j [-s] link show}.
 *
 * @param up        whether the UP flag is set (administratively up)
 * @param addresses addresses as {@code 10.0.0.1/24}; empty for {@code ip -j link}
 * @param counters  the interface's traffic counters with {@code -s}; null without
 */
public record IpInterface(String name, int mtu, String qdisc, String operstate, boolean up, String mac,
                          List<String> addresses, Counters counters) {

    /** Totals since the interface was created, as the kernel counts them (layer 2 bytes). */
    public record Counters(long rxBytes, long rxPackets, long rxDropped, long txBytes, long txPackets, long txDropped) {
    }
}
