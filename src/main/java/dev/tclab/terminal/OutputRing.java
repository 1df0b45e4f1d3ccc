package dev.tclab.terminal;

/**
 * The most recent bytes a shell printed, replayed to a page that reconnects so the learner sees their screen again.
 * Not thread-safe: {@link TerminalSession} guards it.
 */
final class OutputRing {

    private final byte[] buffer;
    private int start;
    private int size;

    OutputRing(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("replay buffer needs at least one byte, got " + capacity);
        }
        this.buffer = new byte[capacity];
    }

    /**
     * Keeps the chunk's last bytes, overwriting the oldest: at most two array copies, since an output flood (think
     * {@code base64 /dev/urandom}) passes every byte through here under the session's lock.
     */
    void append(byte[] chunk) {
        int kept = Math.min(chunk.length, buffer.length);
        int from = chunk.length - kept;
        int end = (start + size) % buffer.length;
        int first = Math.min(kept, buffer.length - end);
        System.arraycopy(chunk, from, buffer, end, first);
        System.arraycopy(chunk, from + first, buffer, 0, kept - first);
        int overwritten = Math.max(0, size + kept - buffer.length);
        size = Math.min(buffer.length, size + kept);
        start = (start + overwritten) % buffer.length;
    }

    /** Forgets everything kept. */
    void clear() {
        start = 0;
        size = 0;
    }

    /**
     * The kept output, oldest first. Once older output was dropped, the replay starts at the first line break (when
     * there is one in the first quarter) and never inside a UTF-8 sequence, so the learner does not see half a line
     * or a broken character at the top.
     */
    byte[] snapshot() {
        byte[] all = new byte[size];
        for (int i = 0; i < size; i++) {
            all[i] = buffer[(start + i) % buffer.length];
        }
        if (size < buffer.length) {
            return all;
        }
        int from = 0;
        for (int i = 0; i < size / 4; i++) {
            if (all[i] == '\n') {
                from = i + 1;
                break;
            }
        }
        while (from < size && (all[from] & 0xC0) == 0x80) {
            from++;
        }
        return java.util.Arrays.copyOfRange(all, from, size);
    }
}
