package dev.tclab.terminal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class TerminalControlTest {

    private final ObjectMapper json = new ObjectMapper();

    @Test
    void shouldReadAResize() throws Exception {
        assertEquals(
                new TerminalControl.Resize(120, 40),
                TerminalControl.parse(json, "{\"type\":\"resize\",\"cols\":120,\"rows\":40}"));
    }

    @Test
    void shouldReadAnAcknowledgementOfDrawnOutput() throws Exception {
        assertEquals(new TerminalControl.Ack(0), TerminalControl.parse(json, "{\"type\":\"ack\",\"bytes\":0}"));
        assertEquals(
                new TerminalControl.Ack(5_000_000_000L),
                TerminalControl.parse(json, "{\"type\":\"ack\",\"bytes\":5000000000}"));
        for (String bad : new String[] {
            "{\"type\":\"ack\"}",
            "{\"type\":\"ack\",\"bytes\":-1}",
            "{\"type\":\"ack\",\"bytes\":1.5}",
            "{\"type\":\"ack\",\"bytes\":\"12\"}",
            "{\"type\":\"ack\",\"bytes\":1e30}"
        }) {
            var e = assertThrows(
                    TerminalControl.InvalidControlException.class, () -> TerminalControl.parse(json, bad), bad);
            assertTrue(e.getMessage().contains("\"bytes\""), e.getMessage());
        }
    }

    @Test
    void shouldRejectMalformedJsonSayingKeystrokesAreBinary() {
        var e = assertThrows(
                TerminalControl.InvalidControlException.class, () -> TerminalControl.parse(json, "ls -l\n"));
        assertTrue(e.getMessage().contains("not valid JSON"), e.getMessage());
        assertTrue(e.getMessage().contains("binary"), e.getMessage());
    }

    @Test
    void shouldRejectAnUnknownType() {
        var e = assertThrows(
                TerminalControl.InvalidControlException.class,
                () -> TerminalControl.parse(json, "{\"type\":\"reboot\"}"));
        assertTrue(e.getMessage().contains("'reboot'"), e.getMessage());
    }

    @Test
    void shouldRejectAbsurdOrMissingSizes() {
        for (String bad : new String[] {
            "{\"type\":\"resize\",\"cols\":100000,\"rows\":40}",
            "{\"type\":\"resize\",\"cols\":80,\"rows\":0}",
            "{\"type\":\"resize\",\"cols\":80.5,\"rows\":24}",
            "{\"type\":\"resize\",\"cols\":\"80\",\"rows\":24}",
            "{\"type\":\"resize\",\"rows\":24}",
            "[1,2]"
        }) {
            assertThrows(TerminalControl.InvalidControlException.class, () -> TerminalControl.parse(json, bad), bad);
        }
    }
}
