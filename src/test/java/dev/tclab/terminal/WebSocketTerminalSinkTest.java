package dev.tclab.terminal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.vertx.core.buffer.Buffer;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 43, row 6: output a page cannot keep up with is skipped, but its newest part is held and sent once the page
 * has caught up, so the screen ends where the shell is (a prompt after Ctrl-C); a page that acknowledges what it drew
 * is sent at most a window ahead of it.
 */
class WebSocketTerminalSinkTest {

    private static final String SKIPPED = "some output was skipped";

    /** What reached the page, in order; and the sends whose completion the test holds (a socket not yet written). */
    private final ByteArrayOutputStream page = new ByteArrayOutputStream();

    private final List<UniEmitter<? super Void>> unfinished = new ArrayList<>();
    private boolean completesAtOnce = true;

    private WebSocketConnection connection() {
        return (WebSocketConnection) Proxy.newProxyInstance(
                getClass().getClassLoader(),
                new Class<?>[] {WebSocketConnection.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "isClosed" -> false;
                    case "sendBinary" -> {
                        page.writeBytes(((Buffer) args[0]).getBytes());
                        yield completesAtOnce
                                ? Uni.createFrom().voidItem()
                                : Uni.createFrom().<Void>emitter(unfinished::add);
                    }
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    /** The socket writes everything sent so far, and what that lets the sink send. */
    private void completeSends() {
        while (!unfinished.isEmpty()) {
            List<UniEmitter<? super Void>> sends = new ArrayList<>(unfinished);
            unfinished.clear();
            sends.forEach(send -> send.complete(null));
        }
    }

    private String shown() {
        return page.toString(StandardCharsets.UTF_8);
    }

    private static byte[] flood(int bytes, char letter) {
        byte[] chunk = new byte[bytes];
        Arrays.fill(chunk, (byte) letter);
        return chunk;
    }

    @Test
    void shouldHoldTheNewestOutputWhileThePageIsBehindAndSendItWhenItCatchesUp() {
        completesAtOnce = false;
        WebSocketTerminalSink sink = new WebSocketTerminalSink(connection(), new ObjectMapper(), 1000, Runnable::run);
        sink.output(flood(1001, 'a')); // over the limit, not yet written
        sink.output(flood(50_000, 'b')); // skipped: the page is behind
        sink.output("\r\nroot@client:~# ".getBytes(StandardCharsets.UTF_8)); // the prompt after a Ctrl-C
        assertThat(shown()).hasSize(1001).doesNotContain("root@client");

        completeSends();
        assertThat(shown())
                .as("the page caught up: a word that output was skipped, then the newest held output")
                .contains(SKIPPED)
                .endsWith("bbbb\r\nroot@client:~# ");
        assertThat(shown().length()).isLessThan(1001 + 50_000);
    }

    @Test
    void shouldKeepNoMoreThanTheHeldTailOfAFlood() {
        completesAtOnce = false;
        WebSocketTerminalSink sink = new WebSocketTerminalSink(connection(), new ObjectMapper(), 1000, Runnable::run);
        sink.output(flood(1001, 'a'));
        for (int i = 0; i < 1000; i++) {
            sink.output(flood(1024, 'b'));
        }
        completeSends();
        assertThat(shown().length())
                .as("a megabyte skipped; what follows the first send is the notice and the held tail")
                .isLessThanOrEqualTo(1001 + 200 + WebSocketTerminalSink.HELD_BYTES);
    }

    @Test
    void shouldSendAPageThatAcknowledgesAtMostAWindowAheadOfWhatItDrew() {
        WebSocketTerminalSink sink =
                new WebSocketTerminalSink(connection(), new ObjectMapper(), 4 << 20, Runnable::run);
        sink.acknowledged(0);
        for (int i = 0; i < 1000; i++) {
            sink.output(flood(1024, 'x')); // every send completes at once: the socket takes it all
        }
        int sentBeforeDrawing = page.size();
        assertThat((long) sentBeforeDrawing)
                .as("no more than a window (and a chunk) ahead of a page that drew nothing")
                .isLessThanOrEqualTo(WebSocketTerminalSink.PAGE_WINDOW + 1024);

        sink.output("\r\nroot@client:~# ".getBytes(StandardCharsets.UTF_8));
        sink.acknowledged(sentBeforeDrawing); // the page drew all it got
        assertThat(shown()).contains(SKIPPED).endsWith("xxx\r\nroot@client:~# ");
        assertThat(page.size()).isLessThanOrEqualTo(sentBeforeDrawing + 200 + WebSocketTerminalSink.HELD_BYTES);
    }

    @Test
    void shouldNotTrustAnAcknowledgementOfMoreThanWasSent() {
        WebSocketTerminalSink sink =
                new WebSocketTerminalSink(connection(), new ObjectMapper(), 4 << 20, Runnable::run);
        sink.acknowledged(Long.MAX_VALUE); // a page that says it drew what it never got
        for (int i = 0; i < 1000; i++) {
            sink.output(flood(1024, 'x'));
        }
        assertThat((long) page.size()).isLessThanOrEqualTo(WebSocketTerminalSink.PAGE_WINDOW + 1024);
    }

    @Test
    void shouldPassOutputStraightThroughToAPageThatKeepsUp() {
        WebSocketTerminalSink sink = new WebSocketTerminalSink(connection(), new ObjectMapper(), 1000, Runnable::run);
        for (int i = 0; i < 100; i++) {
            sink.output(flood(900, 'k'));
        }
        assertThat(shown()).hasSize(90_000).doesNotContain(SKIPPED);
    }
}
