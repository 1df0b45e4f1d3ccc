package dev.tclab.metrics;

import dev.tclab.grading.run.MeasurementSlots;
import dev.tclab.lab.LabPhase;
import dev.tclab.lab.LabService;
import dev.tclab.system.SystemStatus;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.websockets.next.OpenConnections;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Locale;

/**
 * What an operator watches at /q/metrics besides the timers the services record themselves (lab starts, checks,
 * measurement-slot waits): labs by phase, measurement slots in use and waited for, open terminal and statistics
 * sockets, and whether the Docker engine answered at its last check. Gauges are read when scraped; {@link #load}
 * gives the same lab and engine figures to pages (a workshop host's dashboard).
 */
@ApplicationScoped
public class OperatorMetrics {

    private final MeterRegistry registry;
    private final LabService labs;
    private final MeasurementSlots slots;
    private final SystemStatus status;
    private final OpenConnections connections;

    public OperatorMetrics(
            MeterRegistry registry,
            LabService labs,
            MeasurementSlots slots,
            SystemStatus status,
            OpenConnections connections) {
        this.registry = registry;
        this.labs = labs;
        this.slots = slots;
        this.status = status;
        this.connections = connections;
    }

    /** The labs by phase and the engine, read where the gauges read them. */
    public ServerLoad load() {
        return new ServerLoad(
                labs.countIn(LabPhase.RUNNING),
                labs.countIn(LabPhase.STARTING),
                labs.countIn(LabPhase.QUEUED),
                labs.maxRunning(),
                engineReachable(status));
    }

    private static boolean engineReachable(SystemStatus status) {
        return status.snapshot().engine().reachable();
    }

    void register(@Observes StartupEvent event) {
        for (LabPhase phase : new LabPhase[] {LabPhase.QUEUED, LabPhase.STARTING, LabPhase.RUNNING}) {
            Gauge.builder("tclab.labs", labs, l -> l.countIn(phase))
                    .strongReference(true)
                    .description("Labs on this server by phase (queued ones wait for a free slot)")
                    .tag("phase", phase.name().toLowerCase(Locale.ROOT))
                    .register(registry);
        }
        Gauge.builder("tclab.labs", labs, LabService::pooledCount)
                .strongReference(true)
                .description("Labs on this server by phase (queued ones wait for a free slot)")
                .tag("phase", "pooled")
                .register(registry);
        Gauge.builder("tclab.labs.max", labs, LabService::maxRunning)
                .strongReference(true)
                .description("Most labs this server runs at once (tclab.lab.max-running)")
                .register(registry);
        Gauge.builder("tclab.measurement.slots.used", slots, s -> s.size() - s.free())
                .strongReference(true)
                .description("Measurement slots held by running throughput measurements")
                .register(registry);
        Gauge.builder("tclab.measurement.slots.waiting", slots, MeasurementSlots::waiting)
                .strongReference(true)
                .description("Throughput measurements waiting for a slot")
                .register(registry);
        socketGauge("terminal", "/terminal");
        socketGauge("stats", "/stats");
        Gauge.builder("tclab.engine.reachable", status, s -> engineReachable(s) ? 1 : 0)
                .strongReference(true)
                .description("1 when the Docker engine answered at the last check, else 0")
                .register(registry);
    }

    /** Open sockets of one kind, told apart by the end of their path (terminal or statistics). */
    private void socketGauge(String kind, String pathEnd) {
        Gauge.builder(
                        "tclab.sockets.open",
                        connections,
                        c -> c.stream()
                                .filter(conn -> conn.handshakeRequest().path().endsWith(pathEnd))
                                .count())
                .strongReference(true)
                .description("Open WebSockets by kind")
                .tag("kind", kind)
                .register(registry);
    }
}
