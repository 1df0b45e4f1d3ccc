package dev.tclab.stats;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.http.SocketCloseCodes;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.WebSocketConnection;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** Sends samples to one page. A page that cannot keep up misses samples rather than queueing them without bound. */
final class WebSocketStatsViewer implements StatsViewer {

    private static final int MAX_IN_FLIGHT = 32;
    /** Frames can be up to a round's cap (NodeSampler.MAX_ROUND_BYTES) each: count what waits, not only how many. */
    private static final long MAX_IN_FLIGHT_CHARS = 4L << 20;

    private final WebSocketConnection connection;
    private final ObjectMapper json;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong inFlightChars = new AtomicLong();

    WebSocketStatsViewer(WebSocketConnection connection, ObjectMapper json) {
        this.connection = connection;
        this.json = json;
    }

    @Override
    public void send(String frame) {
        if (connection.isClosed() || inFlight.get() >= MAX_IN_FLIGHT || inFlightChars.get() > MAX_IN_FLIGHT_CHARS) {
            return;
        }
        inFlight.incrementAndGet();
        inFlightChars.addAndGet(frame.length());
        Runnable sent = () -> {
            inFlight.decrementAndGet();
            inFlightChars.addAndGet(-frame.length());
        };
        connection.sendText(frame).subscribe().with(ok -> sent.run(), failure -> sent.run());
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
        connection.close(new CloseReason(code, message.length() <= 100 ? message : message.substring(0, 97) + "..."))
                .subscribe().with(ok -> { }, failure -> { });
    }

    private String write(Object frame) {
        try {
            return json.writeValueAsString(frame);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("statistics frames are plain records", e);
        }
    }
}
