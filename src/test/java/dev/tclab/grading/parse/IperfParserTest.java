package dev.tclab.grading.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tclab.tc.Fixtures;
import org.junit.jupiter.api.Test;

class IperfParserTest {

    @Test
    void shouldGradeTcpOnReceivedBitsThroughTbf() throws Exception {
        // Captured in the lab image through tbf rate 10mbit burst 32kb latency 100ms.
        IperfResult r = IperfParser.parse(Fixtures.read("iperf3/iperf3-tcp-tbf10.json"));
        assertEquals(9640803.179806717, r.bitsPerSecond(), 1e-6);
        assertEquals(9.64, r.mbps(), 0.01);
        assertEquals(0L, r.retransmits());
        assertEquals(3.072388, r.seconds(), 1e-9);
        assertFalse(r.udp());
        assertFalse(r.failed());
    }

    @Test
    void shouldReadReverseAndUdpRuns() throws Exception {
        IperfResult reverse = IperfParser.parse(Fixtures.read("iperf3/iperf3-tcp-reverse-ifb18.json"));
        assertTrue(reverse.reverse());
        assertEquals(17.34, reverse.mbps(), 0.01, "download through the 18mbit IFB shaper");
        IperfResult udp = IperfParser.parse(Fixtures.read("iperf3/iperf3-udp.json"));
        assertTrue(udp.udp());
        assertNull(udp.retransmits());
        assertEquals(0.0, udp.lostPercent());
        assertEquals(4.998, udp.mbps(), 0.001);
    }

    @Test
    void shouldReportIperfErrors() throws Exception {
        IperfResult refused = IperfParser.parse(Fixtures.read("iperf3/iperf3-error-refused.json"));
        assertTrue(refused.failed());
        assertEquals("unable to connect to server: Connection refused", refused.error());
        assertEquals(
                "unable to connect to server: No route to host",
                IperfParser.parse(Fixtures.read("iperf3/iperf3-error-unreachable.json"))
                        .error());
    }

    @Test
    void shouldRejectEmptyTruncatedAndForeignOutput() {
        assertTrue(assertThrows(OutputParseException.class, () -> IperfParser.parse(""))
                .getMessage()
                .contains("empty output"));
        String json = Fixtures.read("iperf3/iperf3-tcp-tbf10.json");
        assertThrows(OutputParseException.class, () -> IperfParser.parse(json.substring(0, json.length() - 40)));
        OutputParseException wrongKind = assertThrows(
                OutputParseException.class, () -> IperfParser.parse(Fixtures.read("tc/qdisc-tbf-loaded.json")));
        assertTrue(wrongKind.getMessage().contains("an object"), wrongKind.getMessage());
        assertThrows(OutputParseException.class, () -> IperfParser.parse("{\"start\":{},\"end\":{}}"));
    }
}
