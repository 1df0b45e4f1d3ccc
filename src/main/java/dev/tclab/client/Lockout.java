package dev.tclab.client;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Failures per key (a host account, a client address) with a growing wait and then a lock: the first {@code free}
 * failures cost nothing, each further one makes the key wait twice as long as the one before (1 s, 2 s, 4 s, ...),
 * and the {@code lockAfter}-th locks the key for {@code lock}. A success forgets the key's failures; so does
 * {@code lock} without a failure. Memory is bounded by the keys that failed within that time. Per process: with
 * several replicas behind a load balancer a guesser gets up to this many tries per replica.
 */
public final class Lockout {

    /** A key locked until {@code until}, after {@code failures} failures. */
    public record Lock(String key, int failures, Instant until) {}

    private record State(int failures, Instant last, Instant until) {}

    private final int free;
    private final int lockAfter;
    private final Duration lock;
    private final InstantSource clock;
    private final Map<String, State> states = new HashMap<>();
    private Instant lastSweep;

    public Lockout(int free, int lockAfter, Duration lock, InstantSource clock) {
        this.free = Math.max(0, free);
        this.lockAfter = Math.max(this.free + 1, lockAfter);
        this.lock = lock;
        this.clock = clock;
        this.lastSweep = clock.instant();
    }

    /** How long {@code key} must wait before it may try again; empty when it may try now. */
    public synchronized Optional<Duration> wait(String key) {
        Instant now = clock.instant();
        State state = states.get(key);
        if (state == null || !state.until().isAfter(now)) {
            return Optional.empty();
        }
        return Optional.of(Duration.between(now, state.until()));
    }

    /** Counts a failure of {@code key}; returns the lock when this failure locks it (for the log). */
    public synchronized Optional<Lock> failed(String key) {
        Instant now = clock.instant();
        sweep(now);
        State before = states.get(key);
        int failures = before == null || forgotten(before, now) ? 1 : before.failures() + 1;
        Instant until = now.plus(waitAfter(failures));
        states.put(key, new State(failures, now, until));
        // A locked key is refused before its password is tried, so each failure from here on follows an ended lock.
        return failures >= lockAfter ? Optional.of(new Lock(key, failures, until)) : Optional.empty();
    }

    private Duration waitAfter(int failures) {
        if (failures >= lockAfter) {
            return lock;
        }
        if (failures <= free) {
            return Duration.ZERO;
        }
        Duration grown = Duration.ofSeconds(1L << Math.min(30, failures - free - 1));
        return grown.compareTo(lock) > 0 ? lock : grown;
    }

    /** Forgets the key's failures. */
    public synchronized void succeeded(String key) {
        states.remove(key);
    }

    /** The keys locked now, longest lock first. */
    public synchronized List<Lock> locks() {
        Instant now = clock.instant();
        return states.entrySet().stream()
                .filter(e -> e.getValue().failures() >= lockAfter
                        && e.getValue().until().isAfter(now))
                .map(e -> new Lock(
                        e.getKey(), e.getValue().failures(), e.getValue().until()))
                .sorted(Comparator.comparing(Lock::until).reversed())
                .toList();
    }

    private boolean forgotten(State state, Instant now) {
        return !state.until().isAfter(now) && !state.last().plus(lock).isAfter(now);
    }

    /** Drops keys whose failures are forgotten, at most once per lock period. */
    private void sweep(Instant now) {
        if (lastSweep.plus(lock).isAfter(now)) {
            return;
        }
        lastSweep = now;
        states.values().removeIf(state -> forgotten(state, now));
    }
}
