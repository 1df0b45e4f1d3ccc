package dev.tclab.runtime;

import java.io.InputStream;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The stdin of an exec stream: bytes offered from any thread, read by the runtime client's writer thread.
 * (PipedInputStream is unusable here: it fails once a thread that wrote to it has ended, and WebSocket
 * messages arrive on changing worker threads.) Bounded: a process that does not read its input (a learner's
 * {@code stty -icanon; sleep 999}) must not make the app hold whatever is sent to it.
 */
public final class QueueInputStream extends InputStream {

    private static final byte[] END = new byte[0];

    private final BlockingQueue<byte[]> chunks = new LinkedBlockingQueue<>();
    private final AtomicLong queuedBytes = new AtomicLong();
    private final long maxQueuedBytes;
    private byte[] current = new byte[0];
    private int position;
    private volatile boolean closed;

    /** @param maxQueuedBytes bytes waiting to be read beyond which {@link #offer} refuses more */
    public QueueInputStream(long maxQueuedBytes) {
        this.maxQueuedBytes = maxQueuedBytes;
    }

    /** Queues a copy of {@code bytes}; false (and nothing queued) when the reader is {@code maxQueuedBytes} behind. */
    public boolean offer(byte[] bytes) {
        if (closed || bytes.length == 0) {
            return true; // a closed stream drops input silently: its process is gone, there is nobody to tell
        }
        if (queuedBytes.addAndGet(bytes.length) > maxQueuedBytes) {
            queuedBytes.addAndGet(-bytes.length);
            return false;
        }
        chunks.add(bytes.clone());
        return true;
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
            queuedBytes.addAndGet(-current.length);
            if (current == END) {
                return -1;
            }
        }
        int n = Math.min(length, current.length - position);
        System.arraycopy(current, position, buffer, offset, n);
        position += n;
        return n;
    }

    /**
     * Bytes readable without blocking, and 1 once the stream is closed so that a reader that polls this before it
     * reads (the Kubernetes client's input pump does) reads the end.
     */
    @Override
    public int available() {
        long pending = (current == END ? 0 : current.length - position) + Math.max(0, queuedBytes.get());
        return pending == 0 && closed ? 1 : (int) Math.min(Integer.MAX_VALUE, pending);
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            chunks.add(END);
        }
    }
}
