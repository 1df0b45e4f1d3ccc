package dev.tclab.terminal;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.http.SocketRefusedException;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.NodeNotFoundException;
import io.quarkus.websockets.next.OnBinaryMessage;
import io.quarkus.websockets.next.OnClose;
import io.quarkus.websockets.next.OnOpen;
import io.quarkus.websockets.next.OnTextMessage;
import io.quarkus.websockets.next.PathParam;
import io.quarkus.websockets.next.UserData;
import io.quarkus.websockets.next.WebSocket;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.common.annotation.NonBlocking;
import java.time.InstantSource;

/**
 * A workshop host's view of a learner's terminal: the learner's own shell, read-only ({@code ?mode=shadow}, the
 * default) or taken over ({@code ?mode=control}: the host's keystrokes go to the shell and the learner's terminal
 * says a host is typing). The learner keeps their terminal either way. Under /api/host, so only a host session
 * reaches it, and {@link HostTerminalAccess} decides which learners' shells.
 */
@WebSocket(path = "/api/host/events/{eventId}/learners/{learner}/labs/{labId}/nodes/{node}/terminal")
public class HostTerminalSocket {

    private static final UserData.TypedKey<Viewing> VIEWING = new UserData.TypedKey<>("tclab.host-terminal");

    private record Viewing(
            HostTerminalAccess.Grant grant, TerminalSession session, WebSocketTerminalSink viewer, boolean control) {}

    private final HostTerminalAccess access;
    private final TerminalSessions sessions;
    private final TerminalHandshake handshake;
    private final ObjectMapper json;
    private final InstantSource clock;

    public HostTerminalSocket(
            HostTerminalAccess access,
            TerminalSessions sessions,
            TerminalHandshake handshake,
            ObjectMapper json,
            InstantSource clock) {
        this.clock = clock;
        this.access = access;
        this.sessions = sessions;
        this.handshake = handshake;
        this.json = json;
    }

    @OnOpen
    @Blocking
    public void open(
            WebSocketConnection connection,
            @PathParam String eventId,
            @PathParam String learner,
            @PathParam String labId,
            @PathParam String node) {
        WebSocketTerminalSink viewer = handshake.page(connection);
        boolean control = "mode=control".equals(connection.handshakeRequest().query());
        handshake.open(viewer, gone -> "The learner's " + node + " node is not running any more.", () -> {
            HostTerminalAccess.Grant grant = access.grant(eventId, learner, labId, control);
            TerminalSession session;
            try {
                TerminalHandshake.requireTerminal(grant.lab(), labId, node);
                session = sessions.watch(new SessionKey(labId, node, grant.learner()), viewer);
            } catch (SocketRefusedException | NodeNotFoundException | EngineUnavailableException e) {
                access.released(grant);
                throw e;
            }
            connection.userData().put(VIEWING, new Viewing(grant, session, viewer, control));
            viewer.sendControl(new TerminalFrames.Shell(false));
        });
    }

    /** Keystrokes of a host who took over go to the shell; a read-only view is told to take over first. */
    @OnBinaryMessage
    @NonBlocking
    public void input(WebSocketConnection connection, byte[] keystrokes) {
        Viewing viewing = connection.userData().get(VIEWING);
        if (viewing == null) {
            return;
        }
        if (!viewing.control()) {
            viewing.viewer()
                    .sendControl(new TerminalFrames.Error(
                            "This view is read-only; press Take over to type in the learner's terminal."));
            return;
        }
        viewing.grant().lab().touch(clock.instant());
        viewing.session().writeAsHost(keystrokes, viewing.grant().host());
    }

    /**
     * The host's page acknowledges what it drew ({@code {"type":"ack"}}), as the learner's does, so a learner's flood
     * reaches the dashboard only a window ahead of what it drew. A resize is the learner's page's to make: ignored.
     */
    @OnTextMessage
    @Blocking
    public void control(WebSocketConnection connection, String message) {
        Viewing viewing = connection.userData().get(VIEWING);
        if (viewing == null) {
            return;
        }
        try {
            if (TerminalControl.parse(json, message) instanceof TerminalControl.Ack ack) {
                viewing.viewer().acknowledged(ack.bytes());
            }
        } catch (TerminalControl.InvalidControlException e) {
            viewing.viewer().sendControl(new TerminalFrames.Error(e.getMessage()));
        }
    }

    @OnClose
    @Blocking
    public void close(WebSocketConnection connection) {
        Viewing viewing = connection.userData().remove(VIEWING);
        if (viewing != null) {
            viewing.session().unwatch(viewing.viewer());
            access.released(viewing.grant());
        }
    }
}
