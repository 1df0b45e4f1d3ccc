package dev.tclab.grading.parse;

/**
 * What one iperf3 run measured. {@code bitsPerSecond} is what the receiver got ({@code end.sum_received}), with or
 * without {@code -R}. When iperf3 reports an error, {@code error} holds it and the numbers are zero.
 *
 * @param retransmits TCP retransmissions seen by the sender; null for UDP
 * @param lostPercent UDP datagrams lost; null for TCP
 */
public record IperfResult(
        double bitsPerSecond,
        double sentBitsPerSecond,
        double seconds,
        long bytes,
        Long retransmits,
        Double lostPercent,
        Double jitterMs,
        boolean udp,
        boolean reverse,
        String error) {

    public double mbps() {
        return bitsPerSecond / 1e6;
    }

    public boolean failed() {
        return error != null;
    }
}
