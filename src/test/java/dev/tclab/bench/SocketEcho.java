package dev.tclab.bench;

import dev.tclab.web.TestSocket;
import java.time.Duration;

/** Keystroke-to-echo latency through the app's terminal socket: one key at a time, until its echo arrives. */
final class SocketEcho {

    private SocketEcho() {}

    /** {@code keys} keystrokes into an open terminal socket whose prompt is shown, {@code pauseMillis} apart; in ns. */
    static long[] latencies(TestSocket socket, int keys, long pauseMillis) throws InterruptedException {
        long[] nanos = new long[keys];
        for (int i = 0; i < keys; i++) {
            if (i > 0 && i % 50 == 0) {
                socket.sendBinary("\u0015"); // Ctrl-U: keep the line short
                Thread.sleep(200);
            }
            int length = socket.output().length();
            long start = System.nanoTime();
            socket.sendBinary("x");
            socket.awaitOutput(out -> out.length() > length, Duration.ofSeconds(5));
            nanos[i] = System.nanoTime() - start;
            Thread.sleep(pauseMillis);
        }
        socket.sendBinary("\u0015");
        return nanos;
    }
}
