package dev.tclab.grading;

import dev.tclab.config.TclabConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.Semaphore;

/**
 * Limits throughput measurements running at once on the host: all labs share its CPUs, so thirty simultaneous
 * iperf3 runs would measure the CPU, not the shaper. Callers that must wait are told so first.
 */
@ApplicationScoped
public class MeasurementSlots {

    private final Semaphore slots;
    private final int size;

    @Inject
    public MeasurementSlots(TclabConfig config) {
        this(config.grading().maxConcurrentMeasurements());
    }

    public MeasurementSlots(int size) {
        this.size = Math.max(1, size);
        this.slots = new Semaphore(this.size, true);
    }

    /** A held slot; closing it frees the slot. */
    public interface Slot extends AutoCloseable {
        @Override
        void close();
    }

    /** Takes a slot, calling {@code onWait} first when none is free. Blocks until one is. */
    public Slot acquire(Runnable onWait) throws InterruptedException {
        if (!slots.tryAcquire()) {
            onWait.run();
            slots.acquire();
        }
        boolean[] released = {false};
        return () -> {
            synchronized (released) {
                if (!released[0]) {
                    released[0] = true;
                    slots.release();
                }
            }
        };
    }

    public int size() {
        return size;
    }

    public int free() {
        return slots.availablePermits();
    }
}
