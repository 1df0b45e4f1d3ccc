package dev.tclab.terminal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class OutputRingTest {

    @Test
    void shouldReplayEverythingWhileNotFull() {
        OutputRing ring = new OutputRing(16);
        ring.append(bytes("abc"));
        ring.append(bytes("def"));
        assertEquals("abcdef", text(ring.snapshot()));
    }

    @Test
    void shouldKeepOnlyTheNewestBytesAndStartAtALineBreak() {
        OutputRing ring = new OutputRing(24);
        ring.append(bytes("line one\nline two\nline three\n"));
        // The newest 24 bytes begin with "one\n", the end of a cut line: the replay starts after its break.
        assertEquals("line two\nline three\n", text(ring.snapshot()));
    }

    @Test
    void shouldNotStartInsideAUtf8Sequence() {
        OutputRing ring = new OutputRing(8);
        // "é" is C3 A9; after wrapping, the oldest kept byte is the continuation byte A9.
        ring.append(bytes("xxxxxxxé1234567"));
        byte[] replay = ring.snapshot();
        assertEquals("1234567", text(replay));
    }

    @Test
    void shouldKeepAChunkLargerThanTheBufferByItsEnd() {
        OutputRing ring = new OutputRing(4);
        ring.append(bytes("abcdefgh"));
        assertArrayEquals(bytes("efgh"), ring.snapshot());
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
