package dev.tclab.workshop;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.learner.CurrentLearner;
import io.quarkus.websockets.next.OnOpen;
import io.quarkus.websockets.next.OpenConnections;
import io.quarkus.websockets.next.UserData;
import io.quarkus.websockets.next.WebSocket;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.common.annotation.Blocking;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * A learner's pages hear of their workshop here: on opening, the learner's event as {@code GET /api/workshop/mine}
 * gives it (or {@code null} for self-paced use); then the same again each time the host broadcasts or closes the
 * event, pushed at once. The time left counts down on the page from {@code endsAt} and the server's {@code now}.
 * Learners send nothing.
 */
@WebSocket(path = LearnerEventSocket.PATH)
public class LearnerEventSocket {

    static final String PATH = "/ws/workshop";
    private static final Logger LOG = Logger.getLogger(LearnerEventSocket.class);
    private static final UserData.TypedKey<Seat> SEAT = new UserData.TypedKey<>("tclab.workshop.seat");

    private final WorkshopService workshops;
    private final CurrentLearner learner;
    private final OpenConnections connections;
    private final ObjectMapper json;

    public LearnerEventSocket(WorkshopService workshops, CurrentLearner learner, OpenConnections connections,
                              ObjectMapper json) {
        this.workshops = workshops;
        this.learner = learner;
        this.connections = connections;
        this.json = json;
    }

    @OnOpen
    @Blocking
    public String open(WebSocketConnection connection) {
        Optional<Seat> seat = workshops.seatOf(learner.id());
        seat.ifPresent(s -> connection.userData().put(SEAT, s));
        return frame(seat.flatMap(s -> workshops.find(s.eventId()).map(e -> workshops.learnersView(s, e))));
    }

    /** Pushes the changed event to every open page of its learners (blocking reads, once per event). */
    void onChange(@Observes EventChanged change) {
        Optional<WorkshopEvent> event = workshops.find(change.eventId());
        if (event.isEmpty()) {
            return;
        }
        List<Broadcast> messages = workshops.broadcasts(change.eventId());
        for (WebSocketConnection connection : connections) {
            Seat seat = connection.userData().get(SEAT);
            if (seat != null && seat.eventId().equals(change.eventId()) && connection.isOpen()) {
                connection.sendText(frame(Optional.of(workshops.learnersView(seat, event.get(), messages))))
                        .subscribe().with(sent -> { }, failed -> LOG.debugf("workshop notice not sent to %s: %s",
                                connection.id(), failed.getMessage()));
            }
        }
    }

    private String frame(Optional<LearnersEvent> view) {
        try {
            return json.writeValueAsString(view.orElse(null));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a learner's event view is plain data", e);
        }
    }
}
