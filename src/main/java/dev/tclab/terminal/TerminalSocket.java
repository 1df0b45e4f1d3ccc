package dev.tclab.terminal;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.config.TclabConfig;
import dev.tclab.http.SocketCloseCodes;
import dev.tclab.http.SocketErrors;
import dev.tclab.lab.Lab;
import dev.tclab.lab.LabSocketAccess;
import dev.tclab.lab.SocketBudget;
import io.quarkus.websockets.next.OnBinaryMessage;
import io.quarkus.websockets.next.OnClose;
import io.quarkus.websockets.next.OnError;
import io.quarkus.websockets.next.OnOpen;
import io.quarkus.websockets.next.OnTextMessage;
import io.quarkus.websockets.next.PathParam;
import io.quarkus.websockets.next.UserData;
import io.quarkus.websockets.next.WebSocket;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.common.annotation.NonBlocking;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import org.jboss.logging.Logger;

/**
 * A learner's terminal on one node of their lab. Binary frames carry raw terminal bytes both ways; text frames
 * carry JSON control messages (see docs/api.md, "WebSockets"). Callbacks that talk to the container engine run on
 * worker threads; keystrokes do not wait for it.
 */
@WebSocket(path = "/ws/labs/{labId}/nodes/{node}/terminal")
public class TerminalSocket {

    private static final Logger LOG = Logger.getLogger(TerminalSocket.class);
    private static final UserData.TypedKey<Attachment> ATTACHMENT = new UserData.TypedKey<>("tclab.terminal");
    private static final UserData.TypedKey<SocketBudget.Ticket> TICKET =
            new UserData.TypedKey<>("tclab.terminal.ticket");

    /** What a connection is attached to, and the input its shell dropped. */
    private record Attachment(Lab lab, TerminalSession session, WebSocketTerminalSink page, InputFlood flood) {}

    private final LabSocketAccess access;
    private final TerminalSessions sessions;
    private final TerminalHandshake handshake;
    private final ObjectMapper json;
    private final SocketBudget budget;
    private final long maxDroppedBytes;
    private final Duration floodWindow;
    private final InstantSource clock;

    public TerminalSocket(
            LabSocketAccess access,
            TerminalSessions sessions,
            TerminalHandshake handshake,
            ObjectMapper json,
            SocketBudget budget,
            TclabConfig config,
            InstantSource clock) {
        this.clock = clock;
        this.access = access;
        this.sessions = sessions;
        this.handshake = handshake;
        this.json = json;
        this.budget = budget;
        this.maxDroppedBytes = config.terminal().maxDroppedBytes();
        this.floodWindow = config.terminal().floodWindow();
    }

    @OnOpen
    @Blocking
    public void open(WebSocketConnection connection, @PathParam String labId, @PathParam String node) {
        WebSocketTerminalSink page = handshake.page(connection);
        handshake.open(
                page,
                gone -> "The lab's " + node + " node is not running any more (" + gone.getMessage()
                        + "). Stop the lab and start it again.",
                () -> {
                    LabSocketAccess.Grant grant = access.grant(labId);
                    TerminalHandshake.requireTerminal(grant.lab(), labId, node);
                    // Only the app-wide cap: a learner's terminals are one per node already (the newest page takes it
                    // over).
                    connection.userData().put(TICKET, budget.admit(grant.learner(), "terminal", 0, () -> {}));
                    TerminalSession session = sessions.attach(new SessionKey(labId, node, grant.learner()), page);
                    connection
                            .userData()
                            .put(
                                    ATTACHMENT,
                                    new Attachment(
                                            grant.lab(),
                                            session,
                                            page,
                                            new InputFlood(maxDroppedBytes, floodWindow, System.nanoTime())));
                    page.sendControl(new TerminalFrames.Shell(session.attaches() == 1));
                });
    }

    /**
     * Runs on the event loop: the bytes only join the exec's stdin queue, so this never blocks, and skipping the
     * hand-off to a worker thread takes a thread switch out of every keystroke's round trip.
     */
    @OnBinaryMessage
    @NonBlocking
    public void input(WebSocketConnection connection, byte[] keystrokes) {
        InputInFlight inFlight = TerminalInputGate.of(connection);
        if (inFlight != null) {
            inFlight.taken(keystrokes.length);
        }
        Attachment attachment = connection.userData().get(ATTACHMENT);
        if (attachment == null || attachment.flood().over()) {
            return; // closing already: what still arrives is not read into the shell's queue
        }
        attachment.lab().touch(clock.instant());
        if (!attachment.session().write(keystrokes)
                && attachment.flood().dropped(keystrokes.length, System.nanoTime())) {
            if (inFlight != null) {
                inFlight.stop(); // read nothing more: the sender's writes wait in TCP until the close times out
            }
            attachment
                    .page()
                    .close(
                            SocketCloseCodes.FLOODING,
                            "More input arrived than the shell reads ("
                                    + (maxDroppedBytes >> 20) + " MiB dropped within " + floodWindow.toSeconds()
                                    + " s), so this "
                                    + "terminal connection was closed. Stop what sends it, then reload the page: the shell is kept.");
        }
    }

    @OnTextMessage
    @Blocking
    public void control(WebSocketConnection connection, String message) {
        InputInFlight inFlight = TerminalInputGate.of(connection);
        if (inFlight != null) {
            inFlight.taken(message.getBytes(StandardCharsets.UTF_8).length);
        }
        Attachment attachment = connection.userData().get(ATTACHMENT);
        if (attachment == null) {
            return;
        }
        try {
            TerminalControl.Control control = TerminalControl.parse(json, message);
            if (control instanceof TerminalControl.Resize resize) {
                attachment.session().resize(resize.cols(), resize.rows());
            } else if (control instanceof TerminalControl.Ack ack) {
                attachment.page().acknowledged(ack.bytes());
            }
        } catch (TerminalControl.InvalidControlException e) {
            attachment.page().sendControl(new TerminalFrames.Error(e.getMessage()));
        }
    }

    /** A message too big to take closes this socket with 1009 and says why; anything else is a bug, logged. */
    @OnError
    public void error(WebSocketConnection connection, IllegalStateException error) {
        if (!SocketErrors.isTooBig(error)) {
            LOG.errorf(error, "terminal socket %s failed", connection.id());
        }
        handshake.page(connection).close(SocketErrors.closeCode(error), SocketErrors.explain(error, "terminal"));
    }

    @OnClose
    @Blocking
    public void close(WebSocketConnection connection) {
        SocketBudget.Ticket ticket = connection.userData().remove(TICKET);
        if (ticket != null) {
            budget.release(ticket);
        }
        Attachment attachment = connection.userData().remove(ATTACHMENT);
        if (attachment != null) {
            sessions.detach(attachment.session(), attachment.page());
        }
    }
}
