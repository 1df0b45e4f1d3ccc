package dev.tclab.stats;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.http.SocketCloseCodes;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.WebSocketConnection;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Sends samples to one page. A page that cannot keep up misses samples rather than queueing them without bound, and
 * one that takes nothing for the idle-read timeout (a script that opened the socket and never reads) is closed.
 */
final class WebSocketStatsViewer implements StatsViewer {

    private static final int MAX_IN_FLIGHT = 32;
    /** Frames can be up to a round's cap (NodeSampler.MAX_ROUND_BYTES) each: count what waits, not only how many. */
    private static final long MAX_IN_FLIGHT_CHARS = 4L << 20;

    private final WebSocketConnection connection;
    private final ObjectMapper json;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong inFlightChars = new AtomicLong();
    private final long idleReadNanos;
    private final LongSupplier nanoTime;
    /** When the page last took a frame, or when a frame began to wait for it ({@link #nanoTime}). */
    private volatile long lastProgress;

    WebSocketStatsViewer(WebSocketConnection connection, ObjectMapper json, Duration idleReadTimeout) {
        this(connection, json, idleReadTimeout, System::nanoTime);
    }

    WebSocketStatsViewer(
            WebSocketConnection connection, ObjectMapper json, Duration idleReadTimeout, LongSupplier nanoTime) {
        this.connection = connection;
        this.json = json;
        this.idleReadNanos = idleReadTimeout.toNanos();
        this.nanoTime = nanoTime;
        this.lastProgress = nanoTime.getAsLong();
    }

    @Override
    public void send(String frame) {
        if (connection.isClosed()) {
            return;
        }
        if (inFlight.get() > 0 && nanoTime.getAsLong() - lastProgress > idleReadNanos) {
            // A frame (the history frame is up to 4 MiB, copied per socket) has waited that long: nobody reads.
            connection
                    .close(new CloseReason(SocketCloseCodes.NOT_READING, "not reading"))
                    .subscribe()
                    .with(ok -> {}, failure -> {});
            return;
        }
        if (inFlight.get() >= MAX_IN_FLIGHT || inFlightChars.get() > MAX_IN_FLIGHT_CHARS) {
            return;
        }
        if (inFlight.getAndIncrement() == 0) {
            lastProgress = nanoTime.getAsLong();
        }
        inFlightChars.addAndGet(frame.length());
        Runnable sent = () -> {
            inFlight.decrementAndGet();
            inFlightChars.addAndGet(-frame.length());
        };
        connection
                .sendText(frame)
                .subscribe()
                .with(
                        ok -> {
                            lastProgress = nanoTime.getAsLong();
                            sent.run();
                        },
                        failure -> sent.run());
    }

    @Override
    public void gone(String message) {
        close(SocketCloseCodes.LAB_NOT_FOUND, message);
    }

    void error(String message) {
        send(write(new StatsFrames.Error(message)));
    }

    void close(int code, String message) {
        error(message);
        connection
                .close(new CloseReason(code, message.length() <= 100 ? message : message.substring(0, 97) + "..."))
                .subscribe()
                .with(ok -> {}, failure -> {});
    }

    private String write(Object frame) {
        try {
            return json.writeValueAsString(frame);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("statistics frames are plain records", e);
        }
    }
}
