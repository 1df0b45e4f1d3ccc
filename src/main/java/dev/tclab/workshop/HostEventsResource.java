package dev.tclab.workshop;

import dev.tclab.host.CurrentHost;
import dev.tclab.lab.LabService;
import dev.tclab.lab.ServerFullException;
import dev.tclab.learner.Roles;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.topology.TopologyException;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.Response.Status;
import jakarta.ws.rs.core.UriInfo;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.jboss.resteasy.reactive.RestStreamElementType;

/**
 * The host API: events, their dashboard (also as a server-sent event stream), help on a learner's lab, broadcasts
 * and the export. Every route needs the host role; an event of another host answers 404 (an admin sees all). What a
 * host does to learners' labs is {@link HostLabActions}'; this only translates HTTP.
 */
@Path("/api/host/events")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.HOST)
@Blocking
public class HostEventsResource {

    /** How often the live dashboard is sent: well within the 2 s the host may wait for a change. */
    static final Duration LIVE_PERIOD = Duration.ofMillis(1500);
    /** A live stream ends after this (the page's EventSource reconnects by itself), so none outlives its page long. */
    static final Duration LIVE_MAX = Duration.ofMinutes(10);

    /** An event as the host sees it, with its join link. */
    public record EventInfo(WorkshopEvent event, String status, String joinUrl, int seated) {}

    /** A broadcast to send. */
    public record MessageDraft(String text) {}

    /** A learner's last check run in full. */
    public record LastCheck(String learnerId, String runId, String detail, List<ProgressReader.CheckOutput> results) {}

    private final WorkshopService workshops;
    private final ClassDashboard dashboard;
    private final EventExport export;
    private final ProgressReader progress;
    private final LabService labs;
    private final HostLabActions actions;
    private final CurrentHost host;
    private final JoinLinks joinLinks;

    public HostEventsResource(
            WorkshopService workshops,
            ClassDashboard dashboard,
            EventExport export,
            ProgressReader progress,
            LabService labs,
            HostLabActions actions,
            CurrentHost host,
            JoinLinks joinLinks) {
        this.workshops = workshops;
        this.dashboard = dashboard;
        this.export = export;
        this.progress = progress;
        this.labs = labs;
        this.actions = actions;
        this.host = host;
        this.joinLinks = joinLinks;
    }

    @GET
    public List<EventInfo> list(@Context UriInfo uri) {
        return workshops.events(host.require()).stream().map(e -> info(e, uri)).toList();
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(EventDraft draft, @Context UriInfo uri) {
        WorkshopEvent event = workshops.create(host.require(), draft);
        labs.refillPoolSoon();
        return Response.status(Status.CREATED).entity(info(event, uri)).build();
    }

    @GET
    @Path("{id}")
    public EventInfo get(@PathParam("id") String id, @Context UriInfo uri) {
        return info(event(id), uri);
    }

    /**
     * Changes the workshop: the body is the whole workshop as for creating one (title, lessons in order, seat cap,
     * times, lab terms); each change is recorded as a host action and the learners' pages hear of it.
     */
    @PUT
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public EventInfo update(@PathParam("id") String id, EventDraft draft, @Context UriInfo uri) {
        WorkshopEvent event = workshops.update(host.require(), event(id), draft);
        labs.refillPoolSoon();
        return info(event, uri);
    }

    /** Opens a workshop its host closed, while its closing time (if any) is still ahead. */
    @POST
    @Path("{id}/reopen")
    public EventInfo reopen(@PathParam("id") String id, @Context UriInfo uri) {
        WorkshopEvent event = workshops.reopen(host.require(), event(id));
        labs.refillPoolSoon();
        return info(event, uri);
    }

    @GET
    @Path("{id}/qr.svg")
    @Produces("image/svg+xml")
    public String qr(@PathParam("id") String id, @Context UriInfo uri) {
        return QrSvg.of(joinUrl(event(id), uri));
    }

    @GET
    @Path("{id}/dashboard")
    public ClassDashboard.View view(@PathParam("id") String id) {
        return dashboard.view(event(id));
    }

    /**
     * The dashboard again every {@link #LIVE_PERIOD}, as server-sent events, until the page goes. A page that reads
     * slowly skips updates instead of failing the stream ({@link LiveTicks}).
     */
    @GET
    @Path("{id}/live")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @RestStreamElementType(MediaType.APPLICATION_JSON)
    public Multi<ClassDashboard.View> live(@PathParam("id") String id) {
        WorkshopEvent event = event(id);
        return LiveTicks.every(LIVE_PERIOD, LIVE_MAX, Infrastructure.getDefaultWorkerPool())
                .map(tick -> dashboard.view(workshops.find(event.id()).orElse(event)));
    }

    @POST
    @Path("{id}/messages")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response broadcast(@PathParam("id") String id, MessageDraft draft) {
        workshops.broadcast(event(id), draft == null ? null : draft.text());
        return Response.noContent().build();
    }

    /**
     * A message to one learner: it shows on their open pages at once and on every page they open until they mark it
     * read, and is kept in the action log.
     */
    /**
     * A message to one learner: it shows on their open pages at once and on every page they open until they mark it
     * read, and is kept in the action log.
     */
    @POST
    @Path("{id}/learners/{learner}/message")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response message(@PathParam("id") String id, @PathParam("learner") String learner, MessageDraft draft) {
        actions.message(host.require(), event(id), learner, draft == null ? null : draft.text());
        return Response.noContent().build();
    }

    /** Closes the event (nobody joins any more) and stops its learners' labs of the event's lessons. */
    @POST
    @Path("{id}/close")
    public EventInfo close(@PathParam("id") String id, @Context UriInfo uri) {
        actions.close(host.require(), event(id));
        return info(event(id), uri);
    }

    @POST
    @Path("{id}/learners/{learner}/stop")
    public ClassDashboard.View stop(@PathParam("id") String id, @PathParam("learner") String learner) {
        WorkshopEvent event = event(id);
        actions.stop(host.require(), event, learner);
        return dashboard.view(event);
    }

    /** Replaces the learner's live labs of the event's lessons with fresh ones ({@link HostLabActions#reset}). */
    @POST
    @Path("{id}/learners/{learner}/reset")
    public ClassDashboard.View reset(@PathParam("id") String id, @PathParam("learner") String learner)
            throws EngineUnavailableException, ServerFullException, TopologyException {
        WorkshopEvent event = event(id);
        actions.reset(host.require(), event, learner);
        return dashboard.view(event);
    }

    /** Restarts the idle clock of the learner's running labs ({@link HostLabActions#extend}). */
    @POST
    @Path("{id}/learners/{learner}/extend")
    public ClassDashboard.View extend(@PathParam("id") String id, @PathParam("learner") String learner) {
        WorkshopEvent event = event(id);
        actions.extend(host.require(), event, learner);
        return dashboard.view(event);
    }

    @GET
    @Path("{id}/learners/{learner}/last-check")
    public LastCheck lastCheck(@PathParam("id") String id, @PathParam("learner") String learner) {
        WorkshopEvent event = event(id);
        actions.seat(event, learner);
        Optional<ProgressReader.StepRuns> last = progress.steps(List.of(learner), event.lessons()).stream()
                .max(java.util.Comparator.comparing(ProgressReader.StepRuns::lastAt));
        if (last.isEmpty()) {
            throw new WorkshopRefusal(WorkshopRefusal.Kind.NOT_FOUND, "This learner has not run a check yet.");
        }
        return new LastCheck(
                learner,
                last.get().lastRunId(),
                last.get().lastDetail(),
                progress.results(last.get().lastRunId()));
    }

    @GET
    @Path("{id}/actions")
    public List<HostAction> actions(@PathParam("id") String id) {
        return workshops.actions(event(id).id());
    }

    @GET
    @Path("{id}/export.json")
    public List<EventExport.Line> exportJson(@PathParam("id") String id) {
        return export.lines(event(id));
    }

    @GET
    @Path("{id}/export.csv")
    @Produces("text/csv")
    public Response exportCsv(@PathParam("id") String id) {
        WorkshopEvent event = event(id);
        return Response.ok(export.csv(export.lines(event)))
                .header("Content-Disposition", "attachment; filename=\"tclab-" + event.id() + ".csv\"")
                .build();
    }

    private WorkshopEvent event(String id) {
        return workshops.eventFor(host.require(), id);
    }

    private EventInfo info(WorkshopEvent event, UriInfo uri) {
        return new EventInfo(
                event,
                event.status(workshops.now()),
                joinUrl(event, uri),
                workshops.seats(event.id()).size());
    }

    private String joinUrl(WorkshopEvent event, UriInfo uri) {
        return joinLinks.of(event.joinCode(), uri.getBaseUri());
    }
}
