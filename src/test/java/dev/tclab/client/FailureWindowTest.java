package dev.tclab.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FailureWindowTest {

    private Instant now = Instant.parse("2026-12-02T04:00:00Z");
    private final FailureWindow window = new FailureWindow(10, Duration.ofMinutes(1), () -> now);

    @Test
    void shouldRefuseTheEleventhTryWithinAMinuteUntilTheOldestFailureLeaves() {
        for (int i = 0; i < 10; i++) {
            assertEquals(Optional.empty(), window.wait("198.51.100.1"));
            window.failed("198.51.100.1");
            now = now.plusSeconds(1);
        }
        assertEquals(Optional.of(Duration.ofSeconds(50)), window.wait("198.51.100.1"));
        assertEquals(Optional.empty(), window.wait("198.51.100.2"));
        now = now.plusSeconds(50);
        assertEquals(Optional.empty(), window.wait("198.51.100.1"), "the first failure left the window");
        window.failed("198.51.100.1");
        assertEquals(Optional.of(Duration.ofSeconds(1)), window.wait("198.51.100.1"), "the second leaves next");
    }
}
