package dev.tclab.stats;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.config.TclabConfig;
import dev.tclab.http.SocketCloseCodes;
import dev.tclab.http.SocketErrors;
import dev.tclab.http.SocketRefusedException;
import dev.tclab.lab.LabSocketAccess;
import dev.tclab.lab.SocketBudget;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.NodeNotFoundException;
import dev.tclab.runtime.topology.Topology;
import io.quarkus.websockets.next.CloseReason;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * Live tc statistics of every interactive node of a learner's lab (the interfaces its lab.yml names, or all), and
 * the round trips of its latency probes, as JSON text frames (see docs/api.md, "WebSockets"). Callbacks run on worker threads because watching may start a sampler in the lab.
 */
@WebSocket(path = "/ws/labs/{labId}/stats")
public class StatsSocket {

    private static final Logger LOG = Logger.getLogger(StatsSocket.class);
    private static final UserData.TypedKey<Watching> WATCHING = new UserData.TypedKey<>("tclab.stats");
    private static final UserData.TypedKey<SocketBudget.Ticket> TICKET = new UserData.TypedKey<>("tclab.stats.ticket");
    private static final String KIND = "statistics";

    /** The nodes and how many latency probes a connection watches. */
    private record Watching(String labId, List<String> nodes, int probes, WebSocketStatsViewer viewer) {}

    private final LabSocketAccess access;
    private final StatsHub hub;
    private final StatsHistory history;
    private final ProbeHub probes;
    private final ObjectMapper json;
    private final SocketBudget budget;
    private final int perLearner;
    private final Duration idleReadTimeout;

    public StatsSocket(
            LabSocketAccess access,
            StatsHub hub,
            StatsHistory history,
            ProbeHub probes,
            ObjectMapper json,
            SocketBudget budget,
            TclabConfig config) {
        this.access = access;
        this.hub = hub;
        this.history = history;
        this.probes = probes;
        this.json = json;
        this.budget = budget;
        this.perLearner = config.sockets().statsPerLearner();
        this.idleReadTimeout = config.sockets().idleReadTimeout();
    }

    private WebSocketStatsViewer viewer(WebSocketConnection connection) {
        return new WebSocketStatsViewer(connection, json, idleReadTimeout);
    }

    @OnOpen
    @Blocking
    public void open(WebSocketConnection connection, @PathParam String labId) {
        WebSocketStatsViewer viewer = viewer(connection);
        List<String> watched = new ArrayList<>();
        AtomicBoolean takenOver = new AtomicBoolean();
        try {
            LabSocketAccess.Grant grant = access.grant(labId);
            connection.userData().put(TICKET, budget.admit(grant.learner(), KIND, perLearner, () -> {
                // At once, not when the close completes: a page that never reads never
                // answers the close, and the server waits 10 s for it (Vert.x's closing
                // timeout), meanwhile sending it samples. 6,000 such sockets left thousands
                // of viewers on each sampler, added and removed by copying.
                takenOver.set(true);
                stopWatching(connection);
                viewer.close(
                        SocketCloseCodes.TAKEN_OVER,
                        "The statistics were opened in a newer page, "
                                + "which took them over; reload this page to see them here.");
            }));
            Topology topology = grant.lab().topology();
            // Before the live samples, so the page draws the recent past first and the live ones after it.
            history.frame(labId).ifPresent(viewer::send);
            for (String node : topology.interactiveNodes()) {
                hub.watch(labId, node, topology.nodes().get(node).stats(), viewer);
                watched.add(node);
            }
            probes.watch(labId, topology.probes(), viewer);
            connection
                    .userData()
                    .put(
                            WATCHING,
                            new Watching(labId, watched, topology.probes().size(), viewer));
            // A newer page took this one over while it was still starting to watch, before there was anything to
            // stop: without this, it kept its samplers until its close completed, 10 s later for a page that never
            // answers the close.
            if (takenOver.get()) {
                stopWatching(connection);
            }
        } catch (SocketRefusedException e) {
            viewer.close(e.closeCode(), e.getMessage());
        } catch (NodeNotFoundException e) {
            watched.forEach(node -> hub.unwatch(labId, node, viewer));
            viewer.close(SocketCloseCodes.LAB_NOT_FOUND, "The lab is not running any more (" + e.getMessage() + ").");
        } catch (EngineUnavailableException e) {
            watched.forEach(node -> hub.unwatch(labId, node, viewer));
            viewer.error("The Docker engine does not answer: " + e.getMessage());
            connection
                    .close(new CloseReason(SocketCloseCodes.ENGINE_UNAVAILABLE, "engine unavailable"))
                    .subscribe()
                    .with(ok -> {}, f -> {});
        }
    }

    @OnTextMessage
    @Blocking
    public void message(WebSocketConnection connection, String message) {
        refuse(connection);
    }

    /** Binary messages are refused the same way as text ones (without this method they were dropped silently). */
    @OnBinaryMessage
    @Blocking
    public void binaryMessage(WebSocketConnection connection, byte[] message) {
        refuse(connection);
    }

    private static void refuse(WebSocketConnection connection) {
        Watching watching = connection.userData().get(WATCHING);
        if (watching != null) {
            watching.viewer().error("The statistics socket only sends; it takes no messages.");
        }
    }

    /** A message too big to take closes this socket with 1009 and says why; anything else is a bug, logged. */
    @OnError
    public void error(WebSocketConnection connection, IllegalStateException error) {
        if (!SocketErrors.isTooBig(error)) {
            LOG.errorf(error, "statistics socket %s failed", connection.id());
        }
        viewer(connection).close(SocketErrors.closeCode(error), SocketErrors.explain(error, "statistics"));
    }

    @OnClose
    @Blocking
    public void close(WebSocketConnection connection) {
        SocketBudget.Ticket ticket = connection.userData().remove(TICKET);
        if (ticket != null) {
            budget.release(ticket);
        }
        stopWatching(connection);
    }

    /** The connection's viewer stops getting samples and probe results; a second call does nothing. */
    private void stopWatching(WebSocketConnection connection) {
        Watching watching = connection.userData().remove(WATCHING);
        if (watching != null) {
            watching.nodes().forEach(node -> hub.unwatch(watching.labId(), node, watching.viewer()));
            probes.unwatch(watching.labId(), watching.probes(), watching.viewer());
        }
    }
}
