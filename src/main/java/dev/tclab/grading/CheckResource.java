package dev.tclab.grading;

import dev.tclab.http.ApiError;
import dev.tclab.http.Quote;
import dev.tclab.lab.LabNotFoundException;
import dev.tclab.lab.LabService;
import dev.tclab.learner.CurrentLearner;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Grading a learner's steps in their lab: start a check, follow it, and see which steps have passed. */
@Path("/api/labs/{labId}")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
public class CheckResource {

    /**
     * Which steps passed, the run going on in the lab (a learner's or a background watch), if any, and each checked
     * step's newest finished run, so a reloaded page shows the results it had.
     */
    public record StepsView(Map<String, Boolean> passed, CheckRunView active, Map<String, CheckRunView> last) {}

    private final StepChecks checks;
    private final LabService labs;
    private final CurrentLearner learner;
    private final CheckRunRetention retention;

    public CheckResource(StepChecks checks, LabService labs, CurrentLearner learner, CheckRunRetention retention) {
        this.checks = checks;
        this.labs = labs;
        this.learner = learner;
        this.retention = retention;
    }

    @POST
    @Path("/steps/{stepId}/check")
    public Response check(@PathParam("labId") String labId, @PathParam("stepId") String stepId)
            throws LabNotFoundException, StepNotFoundException {
        CheckRun run = checks.start(labId, learner.id(), stepId);
        return Response.accepted(CheckRunView.of(run)).build();
    }

    @GET
    @Path("/checks/{runId}")
    public Response run(@PathParam("labId") String labId, @PathParam("runId") String runId)
            throws LabNotFoundException {
        String owner = learner.id();
        // A kept run answers even when its lab is gone (the app restarted); otherwise say which of the two is missing.
        var run = checks.run(labId, runId, owner);
        if (run.isPresent()) {
            return Response.ok(run.get()).build();
        }
        labs.get(labId, owner);
        // Run ids are random, so a pruned run and one that never was look alike: the answer names both.
        return ApiError.response(
                Response.Status.NOT_FOUND,
                "No check run " + Quote.of(runId) + " in this lab: it never ran" + " here, or it was pruned ("
                        + retention.rule() + "); press Check again to see where the step stands.");
    }

    @GET
    @Path("/steps")
    public StepsView steps(@PathParam("labId") String labId) throws LabNotFoundException, StepNotFoundException {
        var lab = labs.get(labId, learner.id());
        return new StepsView(
                checks.stepsPassed(lab),
                checks.active(labId).map(CheckRunView::of).orElse(null),
                checks.lastRuns(labId, lab.owner()));
    }

    @ServerExceptionMapper
    public Response stepNotFound(StepNotFoundException e) {
        return ApiError.response(Response.Status.NOT_FOUND, e.getMessage());
    }
}
