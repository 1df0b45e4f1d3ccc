package dev.tclab.terminal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.http.SocketCloseCodes;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.WebSocketConnection;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Sends a shell's output to one page. Sends are asynchronous; when a browser cannot keep up (think {@code cat} of
 * a huge file over a slow link) output beyond the pending limit is skipped and the learner told, instead of
 * queueing without bound in the server's memory.
 */
final class WebSocketTerminalSink implements TerminalSink {

    private static final Logger LOG = Logger.getLogger(WebSocketTerminalSink.class);
    private static final byte[] SKIPPED_NOTICE =
            "\r\n[tclab: some output was skipped because the browser could not keep up]\r\n"
                    .getBytes(StandardCharsets.UTF_8);

    private final WebSocketConnection connection;
    private final ObjectMapper json;
    private final long maxPendingBytes;
    private final AtomicLong pendingBytes = new AtomicLong();
    private volatile boolean skipped;

    WebSocketTerminalSink(WebSocketConnection connection, ObjectMapper json, long maxPendingBytes) {
        this.connection = connection;
        this.json = json;
        this.maxPendingBytes = maxPendingBytes;
    }

    @Override
    public void output(byte[] chunk) {
        if (pendingBytes.get() > maxPendingBytes) {
            skipped = true;
            return;
        }
        if (skipped) {
            skipped = false;
            send(SKIPPED_NOTICE);
        }
        send(chunk);
    }

    @Override
    public void ended(String reason) {
        sendControl(new TerminalFrames.Exit(reason));
        connection.close(CloseReason.NORMAL).subscribe().with(ok -> {}, failure -> {});
    }

    @Override
    public void takenOver() {
        close(SocketCloseCodes.TAKEN_OVER, "This terminal was opened in another tab or window; it continues there.");
    }

    /** Close code 1013 ("try again later"): the page reconnects with backoff and gets a new shell then. */
    @Override
    public void engineLost(String message) {
        close(SocketCloseCodes.ENGINE_UNAVAILABLE, message);
    }

    /** Sends an error frame, then closes the socket with {@code code}. */
    void close(int code, String message) {
        sendControl(new TerminalFrames.Error(message));
        connection.close(new CloseReason(code, truncate(message))).subscribe().with(ok -> {}, failure -> {});
    }

    void sendControl(Object frame) {
        try {
            connection
                    .sendText(json.writeValueAsString(frame))
                    .subscribe()
                    .with(ok -> {}, failure -> LOG.debugf("terminal control frame not sent: %s", failure.getMessage()));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("terminal frames are plain records", e);
        }
    }

    private void send(byte[] bytes) {
        if (connection.isClosed()) {
            return;
        }
        pendingBytes.addAndGet(bytes.length);
        connection
                .sendBinary(Buffer.buffer(bytes))
                .subscribe()
                .with(ok -> pendingBytes.addAndGet(-bytes.length), failure -> pendingBytes.addAndGet(-bytes.length));
    }

    /** A close reason must fit in a control frame (123 bytes); the full text went in the error frame. */
    private static String truncate(String message) {
        return message.length() <= 100 ? message : message.substring(0, 97) + "...";
    }
}
