package dev.tclab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.http.SocketCloseCodes;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.mutiny.Uni;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Issue 25, row 2: a page that never takes a frame is closed after the idle-read timeout; one that reads is not. */
class WebSocketStatsViewerTest {

    private final AtomicReference<CloseReason> closed = new AtomicReference<>();
    private final AtomicInteger sent = new AtomicInteger();
    private long now;

    /** A connection whose page takes frames ({@code reads}) or never does (the writes never complete). */
    private WebSocketConnection connection(boolean reads) {
        return (WebSocketConnection) Proxy.newProxyInstance(
                getClass().getClassLoader(),
                new Class<?>[] {WebSocketConnection.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "isClosed" -> closed.get() != null;
                    case "sendText" -> {
                        sent.incrementAndGet();
                        yield reads
                                ? Uni.createFrom().voidItem()
                                : Uni.createFrom().emitter(e -> {});
                    }
                    case "close" -> {
                        closed.set((CloseReason) args[0]);
                        yield Uni.createFrom().voidItem();
                    }
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void shouldCloseAPageThatTookNothingForTheIdleReadTimeout() {
        WebSocketStatsViewer viewer =
                new WebSocketStatsViewer(connection(false), new ObjectMapper(), Duration.ofSeconds(30), () -> now);
        viewer.send("{\"history\": \"4 MiB in the probe\"}");
        now += Duration.ofSeconds(30).toNanos();
        viewer.send("{}");
        assertNull(closed.get(), "waiting as long as the timeout is fine");
        now += 1;
        viewer.send("{}");
        assertEquals(SocketCloseCodes.NOT_READING, closed.get().getCode());
        assertEquals(2, sent.get(), "nothing more was queued for it");
    }

    @Test
    void shouldKeepAPageThatReads() {
        WebSocketStatsViewer viewer =
                new WebSocketStatsViewer(connection(true), new ObjectMapper(), Duration.ofSeconds(30), () -> now);
        viewer.send("{}");
        now += Duration.ofMinutes(5).toNanos();
        viewer.send("{}");
        assertNull(closed.get());
        assertEquals(2, sent.get());
    }
}
