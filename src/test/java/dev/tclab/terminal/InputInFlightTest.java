package dev.tclab.terminal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 43, row 1: a terminal socket reads at most its budget ahead of what its handlers took. */
class InputInFlightTest {

    private static final long BUDGET = 1 << 20;
    private static final int FRAME = 65_000;

    /** What the counter told the socket, in order. */
    private final List<String> calls = new ArrayList<>();

    private final InputInFlight.Reading reading = new InputInFlight.Reading() {
        @Override
        public void pause() {
            calls.add("pause");
        }

        @Override
        public void resume() {
            calls.add("resume");
        }
    };

    @Test
    void shouldReadNothingUntilStartedSoEveryFrameReadIsCounted() {
        InputInFlight input = new InputInFlight(reading, BUDGET);
        assertEquals(List.of("pause"), calls);
        assertFalse(input.reading());
        input.start();
        assertEquals(List.of("pause", "resume"), calls);
        assertTrue(input.reading());
    }

    @Test
    void shouldPauseAboveTheBudgetAndReadAgainOnceHalfOfItWasTaken() {
        InputInFlight input = new InputInFlight(reading, BUDGET);
        input.start();
        int frames = 0;
        while (input.reading()) {
            input.read(FRAME);
            frames++;
        }
        assertEquals(BUDGET / FRAME + 1, frames, "the frame that passes the budget pauses the socket");
        assertEquals(List.of("pause", "resume", "pause"), calls);
        while (input.bytes() > BUDGET / 2) {
            assertFalse(input.reading(), "still above half the budget: " + input.bytes());
            input.taken(FRAME);
        }
        assertTrue(input.reading());
        assertEquals(List.of("pause", "resume", "pause", "resume"), calls);
    }

    @Test
    void shouldNeverReadAgainOnceStoppedForFlooding() {
        InputInFlight input = new InputInFlight(reading, BUDGET);
        input.start();
        input.read(FRAME);
        input.stop();
        input.taken(FRAME);
        input.read(FRAME);
        input.taken(FRAME);
        assertFalse(input.reading());
        assertEquals(List.of("pause", "resume", "pause"), calls);
    }

    @Test
    void shouldNotCountBelowZeroForAMessageReadBeforeItWasCounted() {
        InputInFlight input = new InputInFlight(reading, BUDGET);
        input.start();
        input.taken(FRAME);
        assertEquals(0, input.bytes());
        input.read(BUDGET);
        assertTrue(input.reading(), "the whole budget may be in flight");
    }
}
