package dev.tclab.grading.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tclab.tc.Fixtures;
import org.junit.jupiter.api.Test;

class PingParserTest {

    @Test
    void shouldReadIputilsSummaryUnderLoad() throws Exception {
        PingResult r = PingParser.parse(Fixtures.read("ping/ping-iputils-under-load.txt"));
        assertEquals(new PingResult(10, 10, 0, 69.362, 94.322, 121.678, 16.083), r);
    }

    @Test
    void shouldReportFullLossWithoutRoundTrips() throws Exception {
        PingResult r = PingParser.parse(Fixtures.read("ping/ping-iputils-all-lost.txt"));
        assertEquals(3, r.transmitted());
        assertEquals(0, r.received());
        assertEquals(100.0, r.lossPercent());
        assertNull(r.avgMs());
    }

    @Test
    void shouldReadBusyboxSummaryWithoutMdev() throws Exception {
        // Hand-written in busybox's format; the lab image ships iputils.
        PingResult r = PingParser.parse(Fixtures.read("ping/handwritten-ping-busybox.txt"));
        assertEquals(0.085, r.avgMs());
        assertNull(r.mdevMs());
        assertEquals(5, r.received());
    }

    @Test
    void shouldRejectOutputWithoutSummary() {
        assertThrows(OutputParseException.class, () -> PingParser.parse(""));
        assertThrows(OutputParseException.class, () -> PingParser.parse("ping: connect: Network is unreachable\n"));
        String truncated = "5 packets transmitted, 5 received, 0% packet loss, time 839ms\nrtt min/avg/max/md";
        assertTrue(assertThrows(OutputParseException.class, () -> PingParser.parse(truncated))
                .getMessage()
                .contains("round-trip"));
    }
}
