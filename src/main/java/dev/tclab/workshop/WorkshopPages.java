package dev.tclab.workshop;

import dev.tclab.host.CurrentHost;
import dev.tclab.lesson.Lesson;
import dev.tclab.lesson.LessonCatalog;
import dev.tclab.lesson.Track;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The workshop pages: the learner's join page, and the host's sign-in, events and dashboard pages. The pages are
 * shells; their scripts talk to the JSON APIs. A host page without a host session sends the browser to sign in.
 */
@Path("/")
@Produces(MediaType.TEXT_HTML)
@Blocking
public class WorkshopPages {

    @CheckedTemplate
    static class Templates {
        static native TemplateInstance join(String code);

        static native TemplateInstance signIn();

        static native TemplateInstance setup();

        static native TemplateInstance events(String host, boolean admin, List<Lesson> lessons, List<Track> tracks);

        static native TemplateInstance dashboard(
                String host, WorkshopEvent event, List<Lesson> lessons, List<Track> tracks);

        static native TemplateInstance projector(WorkshopEvent event);
    }

    private final CurrentHost host;
    private final LessonCatalog catalog;
    private final WorkshopService workshops;

    public WorkshopPages(CurrentHost host, LessonCatalog catalog, WorkshopService workshops) {
        this.host = host;
        this.catalog = catalog;
        this.workshops = workshops;
    }

    @GET
    @Path("join")
    public TemplateInstance join() {
        return Templates.join("");
    }

    @GET
    @Path("join/{code}")
    public TemplateInstance joinWithCode(@PathParam("code") String code) {
        return Templates.join(JoinCodes.normalise(code));
    }

    @GET
    @Path("host/sign-in")
    public TemplateInstance signIn() {
        return Templates.signIn();
    }

    /** The first host account, with the setup token printed at the server's start. */
    @GET
    @Path("host/setup")
    public TemplateInstance setup() {
        return Templates.setup();
    }

    @GET
    @Path("host")
    public Response events() {
        return host.get()
                .map(h -> Response.ok(Templates.events(h.name(), h.admin(), workingLessons(), workingTracks()))
                        .build())
                .orElseGet(WorkshopPages::toSignIn);
    }

    @GET
    @Path("host/events/{id}")
    public Response dashboard(@PathParam("id") String id) {
        if (host.get().isEmpty()) {
            return toSignIn();
        }
        return Response.ok(Templates.dashboard(
                        host.require().name(),
                        workshops.eventFor(host.require(), id),
                        workingLessons(),
                        workingTracks()))
                .build();
    }

    /** What the class sees on the projector: the join code, its QR code, the time left and where the class is. */
    @GET
    @Path("host/events/{id}/projector")
    public Response projector(@PathParam("id") String id) {
        if (host.get().isEmpty()) {
            return toSignIn();
        }
        return Response.ok(Templates.projector(workshops.eventFor(host.require(), id)))
                .build();
    }

    private List<Lesson> workingLessons() {
        return catalog.lessons().stream().filter(l -> !l.broken()).toList();
    }

    /** The course's tracks with their working lessons, for the form's "Add track"; a track with none is left out. */
    private List<Track> workingTracks() {
        Set<String> working = workingLessons().stream().map(Lesson::slug).collect(Collectors.toSet());
        return catalog.course().tracks().stream()
                .map(t -> new Track(
                        t.id(),
                        t.title(),
                        t.summary(),
                        t.lessons().stream().filter(working::contains).toList()))
                .filter(t -> !t.lessons().isEmpty())
                .toList();
    }

    private static Response toSignIn() {
        return Response.seeOther(URI.create("/host/sign-in")).build();
    }
}
