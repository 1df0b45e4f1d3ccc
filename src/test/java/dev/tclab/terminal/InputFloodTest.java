package dev.tclab.terminal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Issue 25, row 3: a socket is closed once its dropped input passes the bound within the window, once. */
class InputFloodTest {

    private static final long SECOND = Duration.ofSeconds(1).toNanos();

    @Test
    void shouldCallForTheCloseOnceTheWindowHoldsMoreThanTheBound() {
        InputFlood flood = new InputFlood(16L << 20, Duration.ofSeconds(10), 0);
        for (int i = 0; i < 256; i++) {
            assertFalse(flood.dropped(65_536, i * SECOND / 100), "16 MiB exactly is allowed");
        }
        assertTrue(flood.dropped(1, 3 * SECOND));
        assertTrue(flood.over());
        assertFalse(flood.dropped(65_536, 4 * SECOND), "the close is asked for once");
    }

    @Test
    void shouldForgetDropsOfAnEarlierWindow() {
        InputFlood flood = new InputFlood(16L << 20, Duration.ofSeconds(10), 0);
        assertFalse(flood.dropped(15 << 20, SECOND));
        assertFalse(flood.dropped(15 << 20, 12 * SECOND), "a slow trickle of drops (a stuck paste) is no flood");
        assertFalse(flood.over());
    }
}
