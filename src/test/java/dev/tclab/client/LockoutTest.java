package dev.tclab.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LockoutTest {

    private Instant now = Instant.parse("2026-12-02T04:00:00Z");
    private final Lockout lockout = new Lockout(3, 10, Duration.ofMinutes(15), () -> now);

    @Test
    void shouldLetAFewFailuresPassThenDoubleTheWaitThenLock() {
        List<Long> waits = new ArrayList<>();
        List<Lockout.Lock> locks = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            lockout.failed("alice").ifPresent(locks::add);
            Duration wait = lockout.wait("alice").orElse(Duration.ZERO);
            waits.add(wait.toSeconds());
            now = now.plus(wait);
        }
        assertEquals(List.of(0L, 0L, 0L, 1L, 2L, 4L, 8L, 16L, 32L, 900L), waits);
        assertEquals(List.of(new Lockout.Lock("alice", 10, now)), locks, "the tenth failure locks, once");
        assertEquals(Optional.empty(), lockout.wait("bob"), "other keys are not slowed");
    }

    @Test
    void shouldListALockWhileItLastsAndForgetFailuresAfterASuccess() {
        for (int i = 0; i < 10; i++) {
            lockout.failed("alice");
            now = now.plus(lockout.wait("alice").orElse(Duration.ZERO));
        }
        assertEquals(List.of(), lockout.locks(), "the lock ended exactly now");
        now = now.minusSeconds(1);
        assertEquals("alice", lockout.locks().get(0).key());
        now = now.plusSeconds(1);
        lockout.succeeded("alice");
        lockout.failed("alice");
        assertEquals(Optional.empty(), lockout.wait("alice"), "after a success the count starts again");
    }

    @Test
    void shouldForgetFailuresALockPeriodAfterTheLast() {
        for (int i = 0; i < 5; i++) {
            lockout.failed("alice");
        }
        now = now.plus(Duration.ofMinutes(16));
        lockout.failed("alice");
        assertEquals(Optional.empty(), lockout.wait("alice"));
        assertTrue(lockout.locks().isEmpty());
    }
}
