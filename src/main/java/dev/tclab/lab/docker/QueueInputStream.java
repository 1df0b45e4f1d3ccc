package dev.tclab.lab.docker;

import java.io.InputStream;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The stdin of an exec stream: bytes offered from any thread, read by docker-java's writer thread.
 * (PipedInputStream is unusable here: it fails once a thread that wrote to it has ended, and WebSocket
 * messages arrive on changing worker threads.)
 */
final class QueueInputStream extends InputStream {

    private static final byte[] END = new byte[0];

    private final BlockingQueue<byte[]> chunks = new LinkedBlockingQueue<>();
    private byte[] current = new byte[0];
    private int position;
    private volatile boolean closed;

    void offer(byte[] bytes) {
        if (!closed && bytes.length > 0) {
            chunks.add(bytes.clone());
        }
    }

    @Override
    public int read() {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) {
        if (length == 0) {
            return 0;
        }
        if (position >= current.length) {
            if (current == END) {
                return -1;
            }
            try {
                current = chunks.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return -1;
            }
            position = 0;
            if (current == END) {
                return -1;
            }
        }
        int n = Math.min(length, current.length - position);
        System.arraycopy(current, position, buffer, offset, n);
        position += n;
        return n;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            chunks.add(END);
        }
    }
}
