package dev.tclab.web;

import dev.tclab.learner.LearnerIds;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A WebSocket client for tests (the JDK's, which, unlike Vert.x's, sends exactly the Origin it is given, or
 * none): sends a chosen cookie and Origin, collects what the server sends.
 */
public final class TestSocket implements WebSocket.Listener, AutoCloseable {

    // Callbacks run on the client's own I/O thread (they only append and notify): a thread hand-off in the test
    // client would be counted against the app in the keystroke benchmark.
    private static final HttpClient HTTP =
            HttpClient.newBuilder().executor(Runnable::run).build();

    private final ByteArrayOutputStream binary = new ByteArrayOutputStream();
    private final StringBuilder partialText = new StringBuilder();
    private final BlockingQueue<String> texts = new LinkedBlockingQueue<>();
    /** The terminal's {"type":"shell"} frames, kept apart so tests reading error frames need not skip them. */
    private final BlockingQueue<String> shellFrames = new LinkedBlockingQueue<>();

    private final CompletableFuture<Integer> closed = new CompletableFuture<>();
    /** Sees each whole text frame as it arrives, on the client's I/O thread (e.g. to timestamp it). */
    private volatile java.util.function.Consumer<String> textObserver = text -> {};

    /** Binary output beyond this many bytes keeps only its most recent part ({@link #terminalKeepingTail}). */
    private long keptBytes = Long.MAX_VALUE / 2;
    /** How long the socket waits after each binary frame before it takes the next (a page slow to draw). */
    private long pauseNanosPerFrame;
    /** Bytes drawn, for a socket that acknowledges them ({@link #terminalReadingSlowly}); the last told. */
    private long ackedBytes;
    /** All binary bytes received, kept or not. */
    private long receivedBytes;

    private WebSocket socket;
    /**
     * Held for each message sent, to its end: the client takes one send at a time ("Send pending" otherwise), and a
     * socket that acknowledges what it drew sends from its own thread beside the test's sends.
     */
    private final Object sending = new Object();

    private TestSocket() {}

    /**
     * Opens a socket to {@code path} on the server at {@code base}. {@code origin} null sends no Origin header;
     * {@code cookie} null sends no cookie. Fails (ExecutionException) when the handshake is refused.
     */
    public static TestSocket open(URI base, String path, String cookie, String origin) throws Exception {
        return openWithCookies(base, path, cookie == null ? null : LearnerIds.COOKIE + "=" + cookie, origin);
    }

    /** As {@link #open}, with a whole Cookie header (e.g. a workshop host's {@code tclab_host=...}). */
    public static TestSocket openWithCookies(URI base, String path, String cookieHeader, String origin)
            throws Exception {
        TestSocket test = new TestSocket();
        WebSocket.Builder builder = HTTP.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10));
        if (cookieHeader != null) {
            builder.header("Cookie", cookieHeader);
        }
        if (origin != null) {
            builder.header("Origin", origin);
        }
        URI uri = URI.create("ws://" + base.getHost() + ":" + base.getPort() + path);
        test.socket = builder.buildAsync(uri, test).get(20, TimeUnit.SECONDS);
        return test;
    }

    /** The terminal socket of {@code node} of lab {@code labId}, opened as a page of the server at {@code base} does. */
    public static TestSocket terminal(URI base, String labId, String node, String cookie) throws Exception {
        return open(base, "/ws/labs/" + labId + "/nodes/" + node + "/terminal", cookie, originOf(base));
    }

    /**
     * As {@link #terminal}, keeping only the last {@code tailBytes} or so of its output (for floods: gigabytes may
     * arrive, and {@link #output()} decodes all it keeps on every look).
     */
    private static TestSocket terminalKeepingTail(URI base, String labId, String node, String cookie, int tailBytes)
            throws Exception {
        TestSocket test = terminal(base, labId, node, cookie);
        synchronized (test) {
            test.keptBytes = tailBytes;
        }
        return test;
    }

    /**
     * As {@link #terminalKeepingTail}, taking its next binary frame only {@code pause} after each one, as a browser
     * busy drawing a flood does, so the server's sends to it queue; and, as the learner's page does, telling the
     * server every 16 KiB how much it has drawn ({@code {"type":"ack"}}).
     */
    public static TestSocket terminalReadingSlowly(
            URI base, String labId, String node, String cookie, int tailBytes, Duration pause) throws Exception {
        TestSocket test = terminalKeepingTail(base, labId, node, cookie, tailBytes);
        synchronized (test) {
            test.pauseNanosPerFrame = pause.toNanos();
        }
        test.sendText("{\"type\":\"ack\",\"bytes\":0}"); // as the page's first word: it acknowledges
        return test;
    }

    /** The statistics socket of lab {@code labId}, opened as a page of the server at {@code base} does. */
    public static TestSocket stats(URI base, String labId, String cookie) throws Exception {
        return open(base, "/ws/labs/" + labId + "/stats", cookie, originOf(base));
    }

    /** The Origin a browser would send for a page of the server at {@code base}. */
    public static String originOf(URI base) {
        return "http://" + base.getHost() + ":" + base.getPort();
    }

    @Override
    public synchronized CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
        byte[] bytes = new byte[data.remaining()];
        data.get(bytes);
        binary.writeBytes(bytes);
        receivedBytes += bytes.length;
        if (binary.size() > 2 * keptBytes) {
            byte[] all = binary.toByteArray();
            binary.reset();
            binary.write(all, all.length - (int) keptBytes, (int) keptBytes);
        }
        notifyAll();
        if (pauseNanosPerFrame > 0) {
            long drawn = receivedBytes;
            boolean ack = drawn - ackedBytes >= 16 * 1024;
            if (ack) {
                ackedBytes = drawn;
            }
            CompletableFuture.delayedExecutor(pauseNanosPerFrame, TimeUnit.NANOSECONDS)
                    .execute(() -> {
                        if (ack) {
                            sendText("{\"type\":\"ack\",\"bytes\":" + drawn + "}");
                        }
                        webSocket.request(1);
                    });
        } else {
            webSocket.request(1);
        }
        return null;
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
        partialText.append(data);
        if (last) {
            String text = partialText.toString();
            textObserver.accept(text);
            (text.startsWith("{\"type\":\"shell\"") ? shellFrames : texts).add(text);
            partialText.setLength(0);
        }
        webSocket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
        closed.complete(statusCode);
        return null;
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
        closed.complete(-1);
    }

    /** Calls {@code observer} with every whole text frame from now on, on the client's I/O thread, as it arrives. */
    public void observeTexts(java.util.function.Consumer<String> observer) {
        textObserver = observer;
    }

    public void sendBinary(String text) {
        sendBinary(text.getBytes(StandardCharsets.UTF_8));
    }

    public void sendBinary(byte[] bytes) {
        synchronized (sending) {
            socket.sendBinary(ByteBuffer.wrap(bytes), true).join();
        }
    }

    /** Sends one binary message in frames of {@code frameSize} bytes. */
    public void sendBinaryInFrames(byte[] bytes, int frameSize) {
        synchronized (sending) {
            for (int start = 0; start < bytes.length; start += frameSize) {
                int end = Math.min(bytes.length, start + frameSize);
                socket.sendBinary(ByteBuffer.wrap(bytes, start, end - start), end == bytes.length)
                        .join();
            }
        }
    }

    public void sendText(String text) {
        synchronized (sending) {
            socket.sendText(text, true).join();
        }
    }

    /** How many bytes arrived in binary frames so far, the ones no longer kept too. */
    public synchronized long receivedBytes() {
        return receivedBytes;
    }

    /** Everything received in binary frames so far (its tail, {@link #terminalKeepingTail}), decoded as UTF-8. */
    public synchronized String output() {
        return binary.toString(StandardCharsets.UTF_8);
    }

    /** Waits until the binary output matches, and returns it; fails with the output so far on timeout. */
    public synchronized String awaitOutput(Predicate<String> condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.test(output())) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("expected output did not arrive within " + timeout + "; got:\n" + output());
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return output();
    }

    /** The next text frame, or null when none came within the timeout. */
    public String pollText(Duration timeout) throws InterruptedException {
        return texts.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The next text frame, or fails after the timeout. */
    public String nextText(Duration timeout) throws InterruptedException {
        String text = pollText(timeout);
        if (text == null) {
            throw new AssertionError("no text frame within " + timeout);
        }
        return text;
    }

    /** The next {"type":"shell",...} frame of a terminal socket, or fails after the timeout. */
    public String nextShellFrame(Duration timeout) throws InterruptedException {
        String text = shellFrames.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (text == null) {
            throw new AssertionError("no shell frame within " + timeout);
        }
        return text;
    }

    /** The close code the server sent, waiting for the close; fails if the socket stays open. */
    public int awaitClose(Duration timeout) throws Exception {
        return closed.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        synchronized (sending) {
            closeOutput();
        }
        socket.abort();
    }

    private void closeOutput() {
        if (!socket.isOutputClosed()) {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "")
                    .orTimeout(5, TimeUnit.SECONDS)
                    .exceptionally(e -> null)
                    .join();
        }
    }
}
