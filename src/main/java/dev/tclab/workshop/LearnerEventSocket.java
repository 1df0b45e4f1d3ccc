package dev.tclab.workshop;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.lab.LabEnded;
import dev.tclab.lab.LabService;
import dev.tclab.learner.CurrentLearner;
import io.quarkus.websockets.next.OnOpen;
import io.quarkus.websockets.next.OpenConnections;
import io.quarkus.websockets.next.UserData;
import io.quarkus.websockets.next.WebSocket;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.common.annotation.Blocking;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * A learner's pages hear of their workshop here: on opening, the learner's event as {@code GET /api/workshop/mine}
 * gives it (or {@code null} for self-paced use); then the same again each time the host broadcasts, changes or closes
 * the event, or sends this learner a message (or the learner marks one read), pushed at once. The time left counts down on the page from {@code endsAt} and the server's {@code now}.
 * Every learner (seated or self-paced) also hears {@code {"notice": }{@link LearnerNotice}{@code }} the moment one
 * of their labs ends, whoever ended it and why, and when their host extends or watches it. Learners send nothing.
 */
@WebSocket(path = LearnerEventSocket.PATH)
public class LearnerEventSocket {

    static final String PATH = "/ws/workshop";
    private static final Logger LOG = Logger.getLogger(LearnerEventSocket.class);
    private static final UserData.TypedKey<Seat> SEAT = new UserData.TypedKey<>("tclab.workshop.seat");
    private static final UserData.TypedKey<String> LEARNER = new UserData.TypedKey<>("tclab.workshop.learner");

    private final WorkshopService workshops;
    private final CurrentLearner learner;
    private final OpenConnections connections;
    private final ObjectMapper json;
    private final LabService labs;

    public LearnerEventSocket(
            WorkshopService workshops,
            CurrentLearner learner,
            OpenConnections connections,
            ObjectMapper json,
            LabService labs) {
        this.workshops = workshops;
        this.labs = labs;
        this.learner = learner;
        this.connections = connections;
        this.json = json;
    }

    @OnOpen
    @Blocking
    public String open(WebSocketConnection connection) {
        Optional<Seat> seat = workshops.seatOf(learner.id());
        connection.userData().put(LEARNER, learner.id());
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
                connection
                        .sendText(frame(Optional.of(workshops.learnersView(seat, event.get(), messages))))
                        .subscribe()
                        .with(
                                sent -> {},
                                failed -> LOG.debugf(
                                        "workshop notice not sent to %s: %s", connection.id(), failed.getMessage()));
            }
        }
    }

    /** The learner's unread messages changed: every open page of theirs gets their event again. */
    void onPersonalMessages(@Observes PersonalMessagesChanged change) {
        Optional<WorkshopEvent> event = workshops.find(change.eventId());
        if (event.isEmpty()) {
            return;
        }
        String text = null;
        for (WebSocketConnection connection : connections) {
            Seat seat = connection.userData().get(SEAT);
            if (seat != null
                    && seat.eventId().equals(change.eventId())
                    && seat.learnerId().equals(change.learnerId())
                    && connection.isOpen()) {
                text = text != null ? text : frame(Optional.of(workshops.learnersView(seat, event.get())));
                connection
                        .sendText(text)
                        .subscribe()
                        .with(
                                sent -> {},
                                failed ->
                                        LOG.debugf("message not sent to %s: %s", connection.id(), failed.getMessage()));
            }
        }
    }

    /** A learner's lab ended: their pages say why (the reason the lab keeps, in the words of whoever ended it). */
    void onLabEnded(@Observes LabEnded ended) {
        labs.all().stream()
                .filter(l -> l.id().equals(ended.labId()) && l.owner() != null)
                .findFirst()
                .ifPresent(lab -> onNotice(new LearnerNotice(
                        lab.owner(),
                        ended.replaced() ? LearnerNotice.Kind.RESTARTING : LearnerNotice.Kind.ENDED,
                        lab.id(),
                        lab.lesson(),
                        lab.reason() == null ? "Your lab stopped." : lab.reason())));
    }

    /** Pushes the notice to every open page of its learner. */
    void onNotice(@Observes LearnerNotice notice) {
        String text = write(Map.of("notice", notice));
        for (WebSocketConnection connection : connections) {
            if (notice.learnerId().equals(connection.userData().get(LEARNER)) && connection.isOpen()) {
                connection
                        .sendText(text)
                        .subscribe()
                        .with(
                                sent -> {},
                                failed -> LOG.debugf(
                                        "lab notice not sent to %s: %s", connection.id(), failed.getMessage()));
            }
        }
    }

    private String frame(Optional<LearnersEvent> view) {
        return write(view.orElse(null));
    }

    private String write(Object frame) {
        try {
            return json.writeValueAsString(frame);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a learner's event view or notice is plain data", e);
        }
    }
}
