package dev.tclab.stats;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Turns a process's output (chunks split anywhere, even inside a UTF-8 sequence) into lines. Bounded: a line longer
 * than {@code maxLine} bytes is cut there and the rest of it dropped, so output without newlines cannot grow the heap.
 * Not thread-safe: the runtime delivers one stream's chunks one after another.
 */
final class LineSplitter {

    private final int maxLine;
    private final Consumer<String> onLine;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    LineSplitter(int maxLine, Consumer<String> onLine) {
        this.maxLine = maxLine;
        this.onLine = onLine;
    }

    void accept(byte[] chunk) {
        for (byte b : chunk) {
            if (b == '\n') {
                String text = line.toString(StandardCharsets.UTF_8);
                line.reset();
                onLine.accept(text);
            } else if (line.size() < maxLine) {
                line.write(b);
            }
        }
    }

    /** Forgets a partial line. */
    void reset() {
        line.reset();
    }
}
