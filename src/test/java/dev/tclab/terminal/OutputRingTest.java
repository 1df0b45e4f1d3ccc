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

    /** Chunks of every size, wrapping at every offset, keep exactly the stream's newest bytes. */
    @Test
    void shouldKeepTheNewestBytesAcrossWrapsAtEveryOffset() {
        java.util.Random random = new java.util.Random(25);
        for (int capacity : new int[] {1, 7, 64}) {
            OutputRing ring = new OutputRing(capacity);
            StringBuilder stream = new StringBuilder();
            for (int round = 0; round < 500; round++) {
                int length = random.nextInt(2 * capacity + 2);
                StringBuilder chunk = new StringBuilder();
                for (int i = 0; i < length; i++) {
                    chunk.append((char) ('a' + random.nextInt(26)));
                }
                ring.append(bytes(chunk.toString()));
                stream.append(chunk);
                String newest = stream.substring(Math.max(0, stream.length() - capacity));
                assertEquals(newest, text(ring.snapshot()), "capacity " + capacity + ", round " + round);
            }
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
