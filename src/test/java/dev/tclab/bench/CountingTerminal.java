package dev.tclab.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A terminal socket read as a page reads it (as fast as the server sends) that counts the output instead of keeping
 * it, so an output flood of hundreds of MB costs this client nothing: the bytes received, the last 64 KiB of them,
 * and the close code.
 */
final class CountingTerminal implements WebSocket.Listener, AutoCloseable {

    private static final int TAIL = 64 * 1024;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final AtomicLong received = new AtomicLong();
    private final StringBuilder tail = new StringBuilder();
    private final CompletableFuture<String> closed = new CompletableFuture<>();
    private WebSocket socket;

    /** The terminal of {@code node} in lab {@code labId}, with the learner's cookie and the page's Origin. */
    static CountingTerminal open(URI base, String labId, String node, String cookieHeader) throws Exception {
        CountingTerminal terminal = new CountingTerminal();
        String host = base.getHost() + ":" + base.getPort();
        terminal.socket = HTTP.newWebSocketBuilder()
                .connectTimeout(Duration.ofSeconds(20))
                .header("Cookie", cookieHeader)
                .header("Origin", "http://" + host)
                .buildAsync(URI.create("ws://" + host + "/ws/labs/" + labId + "/nodes/" + node + "/terminal"), terminal)
                .get(60, TimeUnit.SECONDS);
        return terminal;
    }

    @Override
    public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
        received.addAndGet(data.remaining());
        byte[] bytes = new byte[data.remaining()];
        data.get(bytes);
        synchronized (this) {
            tail.append(new String(bytes, StandardCharsets.ISO_8859_1));
            if (tail.length() > TAIL) {
                tail.delete(0, tail.length() - TAIL);
            }
            notifyAll();
        }
        webSocket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
        webSocket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
        closed.complete(statusCode + (reason.isEmpty() ? "" : " (" + reason + ")"));
        return null;
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
        closed.complete("error: " + error);
    }

    long received() {
        return received.get();
    }

    /** Sends one binary message; false when the socket no longer takes it (closed by the server). */
    boolean send(byte[] bytes) {
        try {
            socket.sendBinary(ByteBuffer.wrap(bytes), true).join();
            return true;
        } catch (CompletionException e) {
            return false;
        }
    }

    boolean send(String text) {
        return send(text.getBytes(StandardCharsets.UTF_8));
    }

    /** Waits until the last output received holds {@code text}; false after the timeout. */
    synchronized boolean awaitTail(String text, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (tail.indexOf(text) < 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    /** The close code and reason the server sent, once it closed; null if it stays open that long. */
    String awaitClose(Duration timeout) throws InterruptedException {
        try {
            return closed.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            return null;
        } catch (java.util.concurrent.ExecutionException e) {
            return "error: " + e.getCause();
        }
    }

    @Override
    public void close() {
        if (!socket.isOutputClosed()) {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "")
                    .orTimeout(5, TimeUnit.SECONDS)
                    .exceptionally(e -> null)
                    .join();
        }
        socket.abort();
    }
}
