package dev.tclab.lab;

import dev.tclab.config.TclabConfig;
import dev.tclab.http.ApiError;
import dev.tclab.http.Quote;
import dev.tclab.http.RetryAfter;
import dev.tclab.learner.CurrentLearner;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.topology.Topology;
import dev.tclab.runtime.topology.TopologyException;
import dev.tclab.runtime.topology.TopologySource;
import io.smallrye.common.annotation.Blocking;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** The learner's labs: start, look at, stop. A learner only ever sees their own labs. */
@Path("/api/labs")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
public class LabResource {

    /**
     * The body of POST /api/labs.
     *
     * @param replace stop the learner's running lab of another lesson first (see {@link LabConflict})
     */
    public record StartRequest(String lesson, Boolean replace) {}

    private final LabService labs;
    private final TopologySource topologies;
    private final StartQuota quota;
    private final CurrentLearner learner;
    private final boolean onePerLearner;

    public LabResource(
            LabService labs, TopologySource topologies, StartQuota quota, TclabConfig config, CurrentLearner learner) {
        this.labs = labs;
        this.topologies = topologies;
        this.quota = quota;
        this.learner = learner;
        this.onePerLearner = config.lab().onePerLearner();
    }

    @POST
    public Response start(StartRequest request, @Context HttpServerRequest http)
            throws ServerFullException, EngineUnavailableException, TopologyException, QuotaExceededException,
                    LabNotFoundException {
        if (request == null || request.lesson() == null || request.lesson().isBlank()) {
            return ApiError.response(
                    Response.Status.BAD_REQUEST, "Send {\"lesson\": \"<slug>\"} to start a lesson's lab.");
        }
        Topology topology = topologies.topologyFor(request.lesson()).orElse(null);
        if (topology == null) {
            return ApiError.response(
                    Response.Status.NOT_FOUND, "There is no lesson " + Quote.of(request.lesson()) + ".");
        }
        String owner = learner.id();
        if (onePerLearner) {
            List<Lab> others = labs.labsOf(owner).stream()
                    .filter(l -> l.phase().live() && !l.lesson().equals(request.lesson()))
                    .toList();
            if (!others.isEmpty() && !Boolean.TRUE.equals(request.replace())) {
                Lab running = others.get(0);
                String title = topologies.titleOf(running.lesson());
                return Response.status(Response.Status.CONFLICT)
                        .type(MediaType.APPLICATION_JSON)
                        .entity(new LabConflict(
                                "Your lab for \u201c" + title
                                        + "\u201d is still running, and a learner runs one lab at a time. "
                                        + "Stop it and start this one (send \"replace\": true), or go back to it.",
                                List.of(),
                                new LabConflict.Running(running.id(), running.lesson(), title)))
                        .build();
            }
            for (Lab other : others) {
                labs.stop(other.id(), owner, "Stopped by the learner, to start the lab of another lesson.");
            }
        }
        // The peer's address, or the forwarded client's when quarkus.http.proxy.* trusts the proxy.
        SocketAddress client = http.remoteAddress();
        LabService.StartResult result = labs.startOrGet(
                owner, request.lesson(), topology, quota.from(client == null ? null : client.hostAddress()));
        return Response.status(result.created() ? Response.Status.ACCEPTED : Response.Status.OK)
                .entity(LabView.of(result.lab(), labs.queueSpot(result.lab()), labs.ownKernelOf(result.lab())))
                .build();
    }

    @GET
    public List<LabView> mine() {
        return labs.labsOf(learner.id()).stream()
                .map(l -> LabView.of(l, labs.queueSpot(l), labs.ownKernelOf(l)))
                .toList();
    }

    /**
     * The lab as this server knows it, with no engine call: a page polls it every 500 ms while the lab starts, a
     * class's 30 pages at once, and the engine is busy starting their labs. A lab whose containers died shows as
     * failed from the next cull round ({@code tclab.lab.cull-interval}), which asks the engine about every running lab.
     */
    @GET
    @Path("/{id}")
    public LabView get(@PathParam("id") String id) throws LabNotFoundException {
        Lab lab = labs.get(id, learner.id());
        return LabView.of(lab, labs.queueSpot(lab), labs.ownKernelOf(lab));
    }

    @DELETE
    @Path("/{id}")
    public Response stop(@PathParam("id") String id) throws LabNotFoundException, EngineUnavailableException {
        labs.stop(id, learner.id());
        return Response.noContent().build();
    }

    @ServerExceptionMapper
    public Response quotaExceeded(QuotaExceededException e) {
        Response refusal = ApiError.response(Response.Status.TOO_MANY_REQUESTS, e.getMessage());
        return e.retryAfter().map(wait -> RetryAfter.on(refusal, wait)).orElse(refusal);
    }
}
