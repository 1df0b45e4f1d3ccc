package dev.tclab.bench;

import dev.tclab.web.NeverReadingSocket;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Many {@link NeverReadingSocket}s at once: whatever the server sends them waits in the socket buffers until {@link
 * #tally()} looks, once the probe is over, at what each connection got: the close frame's code, if any.
 */
final class NeverReadingSockets implements AutoCloseable {

    /** How a probe's sockets ended, as read after it. */
    record Tally(int asked, int accepted, Map<String, Integer> refused, Map<Integer, Integer> closeCodes, int open) {

        String describe() {
            StringBuilder text = new StringBuilder(accepted + " of " + asked + " accepted");
            refused.forEach((why, n) ->
                    text.append(", ").append(n).append(" refused (").append(why).append(')'));
            closeCodes.forEach(
                    (code, n) -> text.append(", ").append(n).append(" closed ").append(code));
            return text.append(", ").append(open).append(" still open").toString();
        }
    }

    /** One accepted connection and what its close frame said. */
    private static final class Connection {
        final Socket socket;
        final InputStream in;
        final FrameScanner frames = new FrameScanner();

        Connection(Socket socket) throws IOException {
            this.socket = socket;
            this.in = socket.getInputStream();
        }
    }

    private final List<Connection> accepted = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, Integer> refused = Collections.synchronizedMap(new TreeMap<>());
    private int asked;

    /**
     * Opens {@code count} sockets to {@code path} on {@code threads} threads at once; returns when every one was
     * answered (or failed).
     */
    void open(URI base, String path, String cookieHeader, int count, int threads) throws Exception {
        asked += count;
        AtomicInteger left = new AtomicInteger(count);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    while (left.getAndDecrement() > 0) {
                        openOne(base, path, cookieHeader);
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private void openOne(URI base, String path, String cookieHeader) {
        try {
            accepted.add(new Connection(NeverReadingSocket.open(base, path, cookieHeader)));
        } catch (IOException e) {
            refused.merge(e.getMessage(), 1, Integer::sum);
        }
    }

    /** Reads, without waiting, what each accepted connection holds now, and tallies how each ended. */
    Tally tally() throws IOException {
        Map<Integer, Integer> codes = new TreeMap<>();
        int open = 0;
        byte[] buffer = new byte[64 * 1024];
        synchronized (accepted) {
            for (Connection c : accepted) {
                int available;
                while (c.frames.closeCode() < 0 && (available = c.in.available()) > 0) {
                    int n = c.in.read(buffer, 0, Math.min(available, buffer.length));
                    c.frames.feed(buffer, n);
                }
                if (c.frames.closeCode() >= 0) {
                    codes.merge(c.frames.closeCode(), 1, Integer::sum);
                } else {
                    open++;
                }
            }
        }
        return new Tally(asked, accepted.size(), new TreeMap<>(refused), codes, open);
    }

    @Override
    public void close() {
        synchronized (accepted) {
            for (Connection c : accepted) {
                try {
                    c.socket.close();
                } catch (IOException e) {
                    // closing anyway
                }
            }
            accepted.clear();
        }
    }

    /**
     * Finds the close frame in a server's stream of WebSocket frames (unmasked, RFC 6455 section 5.2), skipping every
     * other frame's payload as it goes.
     */
    static final class FrameScanner {
        private final byte[] header = new byte[10];
        private int headerLength;
        private int headerNeeded = 2;
        private long payloadLeft;
        private boolean inClose;
        private int closeBytes;
        private int closeBytesRead;
        private int closeCode = -1;

        void feed(byte[] bytes, int length) {
            for (int i = 0; i < length && closeCode < 0; i++) {
                byte b = bytes[i];
                if (payloadLeft > 0) {
                    payloadLeft--;
                    if (inClose) {
                        // The code is the close payload's first two bytes (big-endian); the reason follows.
                        closeBytes = (closeBytes << 8) | (b & 0xff);
                        if (++closeBytesRead == 2) {
                            closeCode = closeBytes;
                        } else if (payloadLeft == 0) {
                            closeCode = 1005;
                        }
                    }
                    continue;
                }
                header[headerLength++] = b;
                if (headerLength == 2) {
                    int len = header[1] & 0x7f;
                    headerNeeded = 2 + (len == 126 ? 2 : len == 127 ? 8 : 0);
                }
                if (headerLength == headerNeeded) {
                    startPayload();
                }
            }
        }

        private void startPayload() {
            int len = header[1] & 0x7f;
            long payload = len;
            if (len >= 126) {
                payload = 0;
                for (int i = 2; i < headerNeeded; i++) {
                    payload = (payload << 8) | (header[i] & 0xff);
                }
            }
            inClose = (header[0] & 0x0f) == 0x8;
            headerLength = 0;
            headerNeeded = 2;
            payloadLeft = payload;
            if (inClose && payload == 0) {
                closeCode = 1005; // a close frame without a code
            }
        }

        /** The close frame's code (1005 when it had none); -1 before one arrived. */
        int closeCode() {
            return closeCode;
        }
    }
}
