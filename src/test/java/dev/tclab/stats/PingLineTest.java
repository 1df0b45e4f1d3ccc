package dev.tclab.stats;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Lines of iputils ping 20221126 (Debian 12, the measurement image) with -n -D -O, as printed there. */
class PingLineTest {

    @Test
    void shouldReadARepliesSequenceTimeAndRoundTrip() {
        assertThat(PingLine.parse("[1796098578.992626] 64 bytes from 198.51.100.10: icmp_seq=1 ttl=62 time=0.286 ms"))
                .isEqualTo(new PingLine.Reply(1, 1796098578992626L, 0.286));
        assertThat(PingLine.parse("[1796098579.193729] 64 bytes from 10.0.0.2: icmp_seq=65535 ttl=64 time=1042 ms"))
                .isEqualTo(new PingLine.Reply(65535, 1796098579193729L, 1042));
    }

    @Test
    void shouldReadAPingWithoutAnswerYet() {
        assertThat(PingLine.parse("[1796098579.397774] no answer yet for icmp_seq=7"))
                .isEqualTo(new PingLine.NoAnswer(7, 1796098579397774L));
    }

    @Test
    void shouldTakeNoMeasurementFromHeadersErrorsDuplicatesOrLies() {
        for (String line : new String[] {
            "PING 10.0.0.2 (10.0.0.2) 56(84) bytes of data.",
            "ping: connect: Network is unreachable",
            "[1796098579.397774] From 10.0.0.1 icmp_seq=3 Destination Host Unreachable",
            "[1796098579.397774] 64 bytes from 10.0.0.2: icmp_seq=3 ttl=64 time=0.05 ms (DUP!)",
            "64 bytes from 10.0.0.2: icmp_seq=3 ttl=64 time=0.05 ms",
            "[1796098579.397774] 64 bytes from 10.0.0.2: icmp_seq=3 ttl=64 time=-5 ms"
        }) {
            assertThat(PingLine.parse(line)).as(line).isEqualTo(new PingLine.Other(line));
        }
    }
}
