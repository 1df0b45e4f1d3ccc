package dev.tclab.stats;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.web.SocketCloseCodes;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.WebSocketConnection;
import java.util.concurrent.atomic.AtomicInteger;

/** Sends samples to one page. A page that cannot keep up misses samples rather than queueing them without bound. */
final class WebSocketStatsViewer implements StatsViewer {

    private static final int MAX_IN_FLIGHT = 32;

    private final WebSocketConnection connection;
    private final ObjectMapper json;
    private final AtomicInteger inFlight = new AtomicInteger();

    WebSocketStatsViewer(WebSocketConnection connection, ObjectMapper json) {
        this.connection = connection;
        this.json = json;
    }

    @Override
    public void send(String frame) {
        if (connection.isClosed() || inFlight.get() >= MAX_IN_FLIGHT) {
            return;
        }
        inFlight.incrementAndGet();
        connection.sendText(frame).subscribe().with(ok -> inFlight.decrementAndGet(), failure -> inFlight.decrementAndGet());
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
