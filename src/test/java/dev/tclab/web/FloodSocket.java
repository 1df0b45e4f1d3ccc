package dev.tclab.web;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A WebSocket client that floods as a hostile script does (issue 43, row 1): over a plain socket, binary messages
 * masked with a zero key (so they cost it no work) written as fast as the server's TCP window takes them, from the
 * moment the handshake is answered, never answering the server's close. It counts the bytes the server let it write,
 * and reads what the server sends (keeping the close code and the last 64 KiB of output).
 */
public final class FloodSocket implements AutoCloseable {

    private static final int TAIL = 64 * 1024;

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private final AtomicLong written = new AtomicLong();
    private final CompletableFuture<Integer> closeCode = new CompletableFuture<>();
    private final ByteArrayOutputStream tail = new ByteArrayOutputStream();
    private final Thread reader;

    private FloodSocket(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
        this.reader = new Thread(this::readFrames, "flood-socket-reader");
        this.reader.setDaemon(true);
    }

    /**
     * Opens the terminal of {@code node} in lab {@code labId} on the server at {@code base}, with the learner's
     * {@code cookieHeader} (e.g. {@code tclab_learner=...}) and the page's Origin.
     */
    public static FloodSocket terminal(URI base, String labId, String node, String cookieHeader) throws IOException {
        Socket socket = new Socket(base.getHost(), base.getPort());
        socket.setSoTimeout(0);
        FloodSocket flood = new FloodSocket(socket);
        flood.handshake(base, "/ws/labs/" + labId + "/nodes/" + node + "/terminal", cookieHeader);
        flood.reader.start();
        return flood;
    }

    private void handshake(URI base, String path, String cookieHeader) throws IOException {
        byte[] nonce = new byte[16];
        ThreadLocalRandom.current().nextBytes(nonce);
        String host = base.getHost() + ":" + base.getPort();
        String request = "GET " + path + " HTTP/1.1\r\n"
                + "Host: " + host + "\r\n"
                + "Upgrade: websocket\r\n"
                + "Connection: Upgrade\r\n"
                + "Sec-WebSocket-Key: " + Base64.getEncoder().encodeToString(nonce) + "\r\n"
                + "Sec-WebSocket-Version: 13\r\n"
                + "Origin: http://" + host + "\r\n"
                + "Cookie: " + cookieHeader + "\r\n\r\n";
        out.write(request.getBytes(StandardCharsets.US_ASCII));
        out.flush();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("the server closed the connection during the handshake: " + head);
            }
            head.append((char) b);
        }
        if (!head.toString().startsWith("HTTP/1.1 101")) {
            throw new IOException("the handshake was refused: "
                    + head.toString().lines().findFirst().orElse(""));
        }
    }

    /**
     * Starts writing binary messages of {@code messageBytes} bytes (126 to 65,535), on a thread of its own, until
     * {@code totalBytes} went or the connection ends ({@link #close}, or the server closed it). A write the server does
     * not read waits in TCP; {@link #written} counts what the kernel took.
     */
    public void startFlood(long totalBytes, int messageBytes) {
        byte[] frame = frame(messageBytes);
        // Sixteen messages per write: the count is exact to 1 MiB, and the client costs a fraction of the server.
        byte[] batch = new byte[frame.length * 16];
        for (int i = 0; i < 16; i++) {
            System.arraycopy(frame, 0, batch, i * frame.length, frame.length);
        }
        Thread writer = new Thread(
                () -> {
                    long sent = 0;
                    try {
                        while (sent < totalBytes) {
                            out.write(batch);
                            sent += 16L * messageBytes;
                            written.set(sent);
                        }
                    } catch (IOException closed) {
                        // The server (or close()) ended the connection: nothing more goes.
                    }
                },
                "flood-socket-writer");
        writer.setDaemon(true);
        writer.start();
    }

    /**
     * Waits until {@link #written} has not grown for {@code still} (the server stopped reading, or the flood ended),
     * at most {@code timeout}; what was written by then.
     */
    public long awaitWrittenStill(Duration still, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long last = written();
        long since = System.nanoTime();
        while (System.nanoTime() < deadline) {
            Thread.sleep(50);
            long now = written();
            if (now != last) {
                last = now;
                since = System.nanoTime();
            } else if (System.nanoTime() - since >= still.toNanos()) {
                break;
            }
        }
        return last;
    }

    /** A masked binary frame of {@code length} bytes of 'a' (key 0: the payload reads as sent). */
    private static byte[] frame(int length) {
        if (length < 126 || length > 65_535) {
            throw new IllegalArgumentException("messages of 126 to 65,535 bytes: " + length);
        }
        byte[] frame = new byte[8 + length];
        frame[0] = (byte) 0x82; // FIN, binary
        frame[1] = (byte) (0x80 | 126); // masked, 16-bit length
        frame[2] = (byte) (length >> 8);
        frame[3] = (byte) length;
        // frame[4..7]: the masking key, zero
        java.util.Arrays.fill(frame, 8, frame.length, (byte) 'a');
        return frame;
    }

    /** Payload bytes the server let this client write so far (to 1 MiB). */
    public long written() {
        return written.get();
    }

    /** The code of the server's close frame, once it came; null if none came within {@code timeout}. */
    public Integer awaitClose(Duration timeout) throws InterruptedException {
        try {
            return closeCode.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            return null;
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    /** The last output the server sent (binary and text frames), as ISO-8859-1. */
    public synchronized String output() {
        return tail.toString(StandardCharsets.ISO_8859_1);
    }

    private void readFrames() {
        try {
            while (true) {
                int first = in.readUnsignedByte();
                int second = in.readUnsignedByte();
                long length = second & 0x7f;
                if (length == 126) {
                    length = in.readUnsignedShort();
                } else if (length == 127) {
                    length = in.readLong();
                }
                byte[] payload = in.readNBytes((int) length);
                int opcode = first & 0x0f;
                if (opcode == 0x8) {
                    closeCode.complete(payload.length >= 2 ? ((payload[0] & 0xff) << 8) | (payload[1] & 0xff) : 1005);
                } else if (opcode <= 0x2) {
                    keep(payload);
                }
            }
        } catch (IOException ended) {
            closeCode.complete(1006);
        }
    }

    private synchronized void keep(byte[] payload) {
        tail.writeBytes(payload);
        if (tail.size() > 2 * TAIL) {
            byte[] all = tail.toByteArray();
            tail.reset();
            tail.write(all, all.length - TAIL, TAIL);
        }
    }

    /** Ends the connection at once (no close handshake): a blocked flood ends. */
    @Override
    public void close() throws IOException {
        socket.close();
    }
}
