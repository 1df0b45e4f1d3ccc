package dev.tclab.system;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness: DOWN while the Docker engine does not answer (no lab can start). Reads the status the app refreshes
 * every {@code tclab.docker.check-interval}, so probing readiness never waits on the engine.
 */
@Readiness
@ApplicationScoped
public class EngineHealthCheck implements HealthCheck {

    private final SystemStatus status;

    public EngineHealthCheck(SystemStatus status) {
        this.status = status;
    }

    @Override
    public HealthCheckResponse call() {
        SystemStatus.Snapshot s = status.snapshot();
        var response = HealthCheckResponse.named("Docker engine")
                .withData("endpoint", s.engine().endpoint())
                .withData("labImagePresent", s.imagePresent());
        return s.engine().reachable()
                ? response.up().build()
                : response.down().withData("reason", s.problem()).build();
    }
}
