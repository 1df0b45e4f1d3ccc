package dev.tclab.terminal;

import dev.tclab.config.TclabConfig;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.websockets.next.UserData;
import io.quarkus.websockets.next.WebSocketConnection;
import io.quarkus.websockets.next.runtime.ConnectionManager;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocketBase;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * Counts a learner's terminal input where Vert.x reads it, before websockets-next queues it (see {@link InputInFlight}).
 * websockets-next 3.33 reads a socket's frames as fast as they come and cannot pause it; its connection holds the
 * Vert.x socket, which can, behind a method it does not publish. This gate reaches that socket when the connection is
 * added (on its event loop, before any frame is read): it pauses it, counts each data frame from the next turn of
 * the loop on, and lets {@link TerminalSocket} mark what it took.
 */
@Singleton
class TerminalInputGate implements ConnectionManager.ConnectionListener {

    private static final UserData.TypedKey<InputInFlight> IN_FLIGHT = new UserData.TypedKey<>("tclab.terminal.input");

    private final long budget;
    private final Method socketOf;

    TerminalInputGate(TclabConfig config) {
        this.budget = config.terminal().maxInputInFlight();
        this.socketOf = socketAccessor();
    }

    void onStart(@Observes StartupEvent event, ConnectionManager connections) {
        connections.addListener(this);
    }

    /** The counter of {@code connection}'s input; null for a connection this gate did not see open. */
    static InputInFlight of(WebSocketConnection connection) {
        return connection.userData().get(IN_FLIGHT);
    }

    @Override
    public void connectionAdded(String endpoint, WebSocketConnection connection) {
        if (!TerminalSocket.class.getName().equals(connection.endpointId())) {
            return;
        }
        WebSocketBase socket = socket(connection);
        InputInFlight input = new InputInFlight(
                new InputInFlight.Reading() {
                    @Override
                    public void pause() {
                        socket.pause();
                    }

                    @Override
                    public void resume() {
                        socket.resume();
                    }
                },
                budget);
        connection.userData().put(IN_FLIGHT, input);
        // websockets-next sets its own frame handler (for pings, which the terminal does not take) right after this
        // call, in the same turn of the event loop; the counting one replaces it in the next turn, before anything is
        // read, as the socket is paused until then.
        Vertx.currentContext().runOnContext(v -> {
            socket.frameHandler(frame -> {
                if (frame.isBinary() || frame.isText() || frame.isContinuation()) {
                    input.read(frame.binaryData().length());
                }
            });
            input.start();
        });
    }

    @Override
    public void connectionRemoved(String endpoint, String connectionId) {
        // The counter goes with the connection's user data.
    }

    private WebSocketBase socket(WebSocketConnection connection) {
        try {
            return (WebSocketBase) socketOf.invoke(connection);
        } catch (IllegalAccessException | InvocationTargetException | ClassCastException e) {
            throw new IllegalStateException(
                    "cannot reach the Vert.x socket of terminal connection " + connection.id() + ": " + e, e);
        }
    }

    /**
     * websockets-next's {@code WebSocketConnectionBase.webSocket()}, looked up at start, so a Quarkus upgrade that
     * removes it fails the start with this reason, not the first terminal.
     */
    private static Method socketAccessor() {
        try {
            Class<?> base = Class.forName(
                    "io.quarkus.websockets.next.runtime.WebSocketConnectionBase",
                    false,
                    ConnectionManager.class.getClassLoader());
            Method method = base.getDeclaredMethod("webSocket");
            method.setAccessible(true);
            return method;
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException(
                    "This Quarkus version's websockets-next has no WebSocketConnectionBase.webSocket(), through which "
                            + "tclab bounds the terminal input it reads (docs/SECURITY.md, issue 43 row 1): " + e,
                    e);
        }
    }
}
