package dev.tclab.terminal;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.config.TclabConfig;
import dev.tclab.http.Quote;
import dev.tclab.http.SocketCloseCodes;
import dev.tclab.http.SocketRefusedException;
import dev.tclab.lab.Lab;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.NodeNotFoundException;
import io.quarkus.websockets.next.WebSocketConnection;
import jakarta.inject.Singleton;
import java.util.function.Function;

/**
 * How a terminal socket opens, the same for a learner's tab and a host's view of it: the page's end of the socket
 * holds a bounded backlog, only a node with a terminal can be opened, and whatever refuses the open closes the
 * socket after an error frame that says why.
 */
@Singleton
class TerminalHandshake {

    /** The part of an open that may be refused: the grant, the node check, the attach. */
    @FunctionalInterface
    interface Opening {
        void open() throws SocketRefusedException, NodeNotFoundException, EngineUnavailableException;
    }

    private final ObjectMapper json;
    private final long maxPendingBytes;

    TerminalHandshake(ObjectMapper json, TclabConfig config) {
        this.json = json;
        this.maxPendingBytes = config.terminal().maxPendingBytes();
    }

    /** The page's end of {@code connection}: output it cannot take yet is bounded by tclab.terminal.max-pending-bytes. */
    WebSocketTerminalSink page(WebSocketConnection connection) {
        return new WebSocketTerminalSink(connection, json, maxPendingBytes);
    }

    /**
     * Runs {@code opening}. A refusal closes {@code page} with its own code and words; a node whose container is gone
     * with {@link SocketCloseCodes#LAB_NOT_FOUND} and the words of {@code nodeGone}; an engine that does not answer
     * with {@link SocketCloseCodes#ENGINE_UNAVAILABLE}, after which the page reconnects with backoff.
     */
    void open(WebSocketTerminalSink page, Function<NodeNotFoundException, String> nodeGone, Opening opening) {
        try {
            opening.open();
        } catch (SocketRefusedException e) {
            page.close(e.closeCode(), e.getMessage());
        } catch (NodeNotFoundException e) {
            page.close(SocketCloseCodes.LAB_NOT_FOUND, nodeGone.apply(e));
        } catch (EngineUnavailableException e) {
            page.engineLost("The Docker engine does not answer: " + e.getMessage());
        }
    }

    /** Refuses, as a malformed request, a node of the lab that has no terminal (or does not exist). */
    static void requireTerminal(Lab lab, String labId, String node) throws SocketRefusedException {
        if (!lab.topology().interactiveNodes().contains(node)) {
            throw new SocketRefusedException(
                    SocketCloseCodes.BAD_REQUEST,
                    "Lab " + Quote.of(labId) + " has no node " + Quote.of(node) + " with a terminal.");
        }
    }
}
