package dev.tclab.terminal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.http.SocketCloseCodes;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.WebSocketConnection;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Sends a shell's output to one page. Sends are asynchronous; when a browser cannot keep up (think {@code cat} of
 * a huge file over a slow link) output is skipped and the learner told, instead of queueing without bound. The page
 * is behind when more than the pending limit waits in this server, or, once the page acknowledges what it has drawn
 * ({@code {"type":"ack"}}, as the learner's page does), when more than {@link #PAGE_WINDOW} is on its way to it
 * (sockets' buffers included: they hold seconds of a flood for a slow page). The newest skipped output is held back
 * (its last {@link #HELD_BYTES}) and sent once the page has caught up, so the screen always ends where the shell is:
 * the prompt after a Ctrl-C that stopped a flood comes within a window's drawing, never lost among what was skipped
 * (issue 43, row 6).
 */
final class WebSocketTerminalSink implements TerminalSink {

    private static final Logger LOG = Logger.getLogger(WebSocketTerminalSink.class);
    private static final byte[] SKIPPED_NOTICE =
            "\r\n[tclab: some output was skipped because the browser could not keep up]\r\n"
                    .getBytes(StandardCharsets.UTF_8);

    private final WebSocketConnection connection;
    private final ObjectMapper json;
    private final long maxPendingBytes;
    /**
     * Where a finished send looks at the held output. Not on the thread that finished it: that is the event loop,
     * perhaps inside the connection's own lock, and a thread holding {@link #lock} may be waiting for that lock in a
     * send.
     */
    private final Executor afterSend;
    /** The last bytes of skipped output, at most: a screenful or two of a flood. */
    static final int HELD_BYTES = 16 * 1024;

    /**
     * How much output may be on its way to a page that acknowledges what it drew: a browser draws it in well under a
     * second, and a window of it per round trip is more than a terminal needs.
     */
    static final long PAGE_WINDOW = 128 * 1024;

    private final AtomicLong pendingBytes = new AtomicLong();
    /** Guards what follows and the order of sends: held output goes out before anything newer. */
    private final Object lock = new Object();
    /** The newest output skipped while the page was behind, sent when it has caught up. */
    private final OutputRing held = new OutputRing(HELD_BYTES);
    /** Bytes of output handed to the socket since the page connected. */
    private long sentBytes;
    /** Bytes the page says it has drawn (never more than were sent); -1 while it has acknowledged nothing. */
    private long drawnBytes = -1;
    /** Whether {@link #held} has output, readable without {@link #lock}. */
    private volatile boolean holding;

    WebSocketTerminalSink(WebSocketConnection connection, ObjectMapper json, long maxPendingBytes) {
        this(connection, json, maxPendingBytes, ForkJoinPool.commonPool());
    }

    WebSocketTerminalSink(WebSocketConnection connection, ObjectMapper json, long maxPendingBytes, Executor afterSend) {
        this.connection = connection;
        this.json = json;
        this.maxPendingBytes = maxPendingBytes;
        this.afterSend = afterSend;
    }

    @Override
    public void output(byte[] chunk) {
        synchronized (lock) {
            if (holding || behind(1)) {
                held.append(chunk);
                holding = true;
                // A send may have finished between the look above and {@code holding}: it saw nothing held.
                sendHeldIfCaughtUp();
                return;
            }
            send(chunk);
        }
    }

    /** The page says it has drawn {@code bytes} bytes of output since it connected. */
    void acknowledged(long bytes) {
        synchronized (lock) {
            drawnBytes = Math.max(drawnBytes, Math.min(bytes, sentBytes));
            sendHeldIfCaughtUp();
        }
    }

    private void sent(int bytes) {
        pendingBytes.addAndGet(-bytes);
        if (holding) {
            afterSend.execute(() -> {
                synchronized (lock) {
                    sendHeldIfCaughtUp();
                }
            });
        }
    }

    /**
     * Sends the held output, after a word that some was skipped, once the page is within half its limits: so a page
     * at the edge gets the held output in one go rather than a dribble.
     */
    private void sendHeldIfCaughtUp() {
        if (!holding || behind(2)) {
            return;
        }
        byte[] tail = held.snapshot();
        held.clear();
        holding = false;
        send(SKIPPED_NOTICE);
        send(tail);
    }

    /** Whether the page is behind by more than {@code 1/fraction} of a limit: this server's or the page's window. */
    private boolean behind(int fraction) {
        return pendingBytes.get() > maxPendingBytes / fraction
                || (drawnBytes >= 0 && sentBytes - drawnBytes > PAGE_WINDOW / fraction);
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

    /** Sends output; called holding {@link #lock}, so bytes leave in the order they were given. */
    private void send(byte[] bytes) {
        if (connection.isClosed()) {
            return;
        }
        sentBytes += bytes.length;
        pendingBytes.addAndGet(bytes.length);
        connection
                .sendBinary(Buffer.buffer(bytes))
                .subscribe()
                .with(ok -> sent(bytes.length), failure -> sent(bytes.length));
    }

    /** A close reason must fit in a control frame (123 bytes); the full text went in the error frame. */
    private static String truncate(String message) {
        return message.length() <= 100 ? message : message.substring(0, 97) + "...";
    }
}
