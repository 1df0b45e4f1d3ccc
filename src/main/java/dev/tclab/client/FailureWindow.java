package dev.tclab.client;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * At most {@code max} failures per key within a sliding window: a key that has them is refused until its oldest
 * failure leaves the window. Memory is bounded by the keys that failed within one window, {@code max} instants each.
 * Per process: with several replicas behind a load balancer a client gets up to this many per replica.
 */
public final class FailureWindow {

    private final int max;
    private final Duration window;
    private final InstantSource clock;
    private final Map<String, Deque<Instant>> failures = new HashMap<>();
    private Instant lastSweep;

    public FailureWindow(int max, Duration window, InstantSource clock) {
        this.max = Math.max(1, max);
        this.window = window;
        this.clock = clock;
        this.lastSweep = clock.instant();
    }

    /** How long {@code key} must wait before it may try again; empty when it may try now. */
    public synchronized Optional<Duration> wait(String key) {
        Instant now = clock.instant();
        Deque<Instant> times = recent(key, now);
        if (times == null || times.size() < max) {
            return Optional.empty();
        }
        return Optional.of(Duration.between(now, times.peekFirst().plus(window)));
    }

    /** Counts one failure of {@code key}. */
    public synchronized void failed(String key) {
        Instant now = clock.instant();
        sweep(now);
        Deque<Instant> times = failures.computeIfAbsent(key, k -> new ArrayDeque<>());
        times.addLast(now);
        while (times.size() > max) {
            times.removeFirst();
        }
    }

    private Deque<Instant> recent(String key, Instant now) {
        Deque<Instant> times = failures.get(key);
        if (times == null) {
            return null;
        }
        while (!times.isEmpty() && !times.peekFirst().plus(window).isAfter(now)) {
            times.removeFirst();
        }
        if (times.isEmpty()) {
            failures.remove(key);
            return null;
        }
        return times;
    }

    /** Forgets keys whose failures all left the window, at most once a window. */
    private void sweep(Instant now) {
        if (lastSweep.plus(window).isAfter(now)) {
            return;
        }
        lastSweep = now;
        failures.values()
                .removeIf(times ->
                        times.isEmpty() || !times.peekLast().plus(window).isAfter(now));
    }
}
