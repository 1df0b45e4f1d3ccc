package dev.tclab.tc;

/**
 * One CAKE tin (priority class) as {@code tc -s -j qdisc show} prints it in the {@code tins} array. Rates are in
 * bytes/s (as in tc's JSON), delays in microseconds.
 */
public record CakeTin(
        long thresholdRateBytesPerSecond,
        long sentBytes,
        long sentPackets,
        long backlogBytes,
        long targetUs,
        long intervalUs,
        long peakDelayUs,
        long avgDelayUs,
        long baseDelayUs,
        long drops,
        long ecnMarks,
        long ackDrops,
        long sparseFlows,
        long bulkFlows,
        long unresponsiveFlows,
        long maxPacketLength,
        long flowQuantum) {}
