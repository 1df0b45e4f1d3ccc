package dev.tclab.system;

import dev.tclab.scheduling.JobRuns;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * Liveness: DOWN, naming the jobs, when a scheduled job (culling, dead-lab detection, the engine check, grading's
 * watch, the backlog sweep, pruning) has not run for three of its periods. Its runs are caught whatever they throw,
 * so this means the scheduler itself stopped (issue 43, row 1: its trigger thread died of an OutOfMemoryError), which
 * only a restart of the process mends.
 */
@Liveness
@ApplicationScoped
public class JobsHealthCheck implements HealthCheck {

    private final JobRuns runs;

    public JobsHealthCheck(JobRuns runs) {
        this.runs = runs;
    }

    @Override
    public HealthCheckResponse call() {
        var stalled = runs.stalled();
        var response = HealthCheckResponse.named("Scheduled jobs").withData("jobs", String.join(", ", runs.jobs()));
        if (stalled.isEmpty()) {
            return response.up().build();
        }
        return response.down()
                .withData(
                        "stalled",
                        String.join(
                                "; ",
                                stalled.stream().map(JobRuns.Stalled::describe).toList()))
                .withData(
                        "reason",
                        "Scheduled jobs stopped running; restart tclab (culling and dead-lab detection"
                                + " wait until then).")
                .build();
    }
}
