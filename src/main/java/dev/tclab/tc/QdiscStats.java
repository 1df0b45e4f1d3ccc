package dev.tclab.tc;

/**
 * The counters tc prints for every qdisc and class: {@code Sent <bytes> bytes <packets> pkt (dropped, overlimits
 * requeues)} and {@code backlog <backlogBytes>b <qlen>p}.
 */
public record QdiscStats(
        long bytes, long packets, long drops, long overlimits, long requeues, long backlogBytes, long qlen) {

    public static final QdiscStats NONE = new QdiscStats(0, 0, 0, 0, 0, 0, 0);
}
