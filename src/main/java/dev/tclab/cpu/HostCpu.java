package dev.tclab.cpu;

import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.LabEngine;
import dev.tclab.scheduling.Job;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import java.util.Optional;

/**
 * Reads the CPU in use on the labs' host every two seconds, when the engine lets the app read it
 * ({@link LabEngine#cpuTimes}): the measurement slots admit fewer measurements while other work takes the host's CPUs
 * (each {@link CpuUse} is fired as a CDI event), and a lab that holds a node at its CPU limit for over a minute outside
 * a check is told so on its page ({@link LabCpuNotice}, fired too).
 */
@ApplicationScoped
public class HostCpu {

    private final LabEngine engine;
    private final CpuReadings readings;

    public HostCpu(LabEngine engine, Event<CpuUse> uses, Event<LabCpuNotice> notices) {
        this.engine = engine;
        this.readings = new CpuReadings(uses::fire, notices::fire);
    }

    /** The last use read; empty before two readings or where the host's CPU cannot be read. */
    public Optional<CpuUse> latest() {
        return readings.latest();
    }

    @Job
    @Scheduled(every = "2s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void read() {
        try {
            engine.cpuTimes().ifPresentOrElse(readings::take, readings::unread);
        } catch (EngineUnavailableException e) {
            readings.unread(); // the engine's health check says why
        }
    }
}
