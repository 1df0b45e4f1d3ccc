package dev.tclab.workshop;

import dev.tclab.learner.CurrentLearner;
import io.smallrye.common.annotation.Blocking;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** The learner's side of a workshop: looking up a code, joining, and what their pages show of their event. */
@Path("/api")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
public class JoinResource {

    /** What a join sends. */
    public record JoinRequest(String code, String name) {}

    /** An open event as a learner may see it before joining. */
    public record EventPreview(String title, List<String> lessons, String status, Instant endsAt) {}

    private final WorkshopService workshops;
    private final CurrentLearner learner;
    private final JoinGuesses guesses;

    public JoinResource(WorkshopService workshops, CurrentLearner learner, JoinGuesses guesses) {
        this.workshops = workshops;
        this.learner = learner;
        this.guesses = guesses;
    }

    @GET
    @Path("join/{code}")
    public EventPreview preview(@PathParam("code") String code, @Context HttpServerRequest http) {
        WorkshopEvent event = guesses.attempt(address(http), () -> workshops.openEvent(code));
        return new EventPreview(
                event.title(),
                event.lessons(),
                event.status(workshops.now()),
                event.end().orElse(null));
    }

    @POST
    @Path("join")
    @Consumes(MediaType.APPLICATION_JSON)
    public LearnersEvent join(JoinRequest request, @Context HttpServerRequest http) {
        Seat seat = guesses.attempt(
                address(http),
                () -> workshops.join(
                        request == null ? null : request.code(),
                        learner.id(),
                        request == null ? null : request.name()));
        return mine(seat).orElseThrow();
    }

    /** 204 when the learner is in no event (self-paced use). */
    @GET
    @Path("workshop/mine")
    public Response mine() {
        return workshops
                .seatOf(learner.id())
                .flatMap(this::mine)
                .map(m -> Response.ok(m).build())
                .orElseGet(() -> Response.noContent().build());
    }

    /** The learner read a message from their host: it leaves their pages (all of them). */
    @POST
    @Path("workshop/mine/messages/{id}/read")
    public Response read(@PathParam("id") long id) {
        workshops.markRead(learner.id(), id);
        return Response.noContent().build();
    }

    /** The peer's address, or the forwarded client's when quarkus.http.proxy.* trusts the proxy. */
    private static String address(HttpServerRequest http) {
        SocketAddress peer = http.remoteAddress();
        return peer == null ? null : peer.hostAddress();
    }

    private Optional<LearnersEvent> mine(Seat seat) {
        return workshops.find(seat.eventId()).map(e -> workshops.learnersView(seat, e));
    }
}
