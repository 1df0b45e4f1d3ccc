package dev.tclab.grading.parse;

import java.util.List;

/**
 * One interface from {@code ip -j addr show} or {@code ip -j link show}.
 *
 * @param up        whether the UP flag is set (administratively up)
 * @param addresses addresses as {@code 10.0.0.1/24}; empty for {@code ip -j link}
 */
public record IpInterface(
        String name, int mtu, String qdisc, String operstate, boolean up, String mac, List<String> addresses) {}
