package dev.tclab.lab;

import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The app's clock in tests that run on {@link FakeRuntimeProfile}: the system's time plus however far a test moved
 * it, so a test lets time pass by {@link #advance} instead of sleeping.
 */
@Alternative
@Singleton
public class MovableClock implements InstantSource {

    private final AtomicReference<Duration> ahead = new AtomicReference<>(Duration.ZERO);

    @Override
    public Instant instant() {
        return Instant.now().plus(ahead.get());
    }

    /** Moves the clock forward. */
    public void advance(Duration by) {
        ahead.accumulateAndGet(by, Duration::plus);
    }

    /** Back to the system's time, for the next test. */
    public void reset() {
        ahead.set(Duration.ZERO);
    }
}
