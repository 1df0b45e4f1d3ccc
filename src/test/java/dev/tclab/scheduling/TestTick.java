package dev.tclab.scheduling;

import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/** A job of the tests' apps, every second: it counts its runs, and throws an Error once when armed. */
@ApplicationScoped
public class TestTick {

    static final String IDENTITY = "tclab-test-tick";
    static final AtomicInteger RUNS = new AtomicInteger();
    static final AtomicBoolean ARMED = new AtomicBoolean();

    @Job
    @Scheduled(every = "1s", identity = IDENTITY)
    void tick() {
        RUNS.incrementAndGet();
        if (ARMED.getAndSet(false)) {
            throw new OutOfMemoryError("thrown on purpose by ScheduledJobsTest");
        }
    }
}
