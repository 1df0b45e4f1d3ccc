package dev.tclab.common;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationWordsTest {

    @Test
    void shouldNeverSayZeroOfAUnitForADurationUnderIt() {
        assertEquals("30 minutes", DurationWords.of(Duration.ofMinutes(30)), "a lifetime under an hour was '0 h'");
        assertEquals("45 seconds", DurationWords.of(Duration.ofSeconds(45)));
        assertEquals("under a second", DurationWords.of(Duration.ofMillis(500)));
    }

    @Test
    void shouldSayEveryWholeUnitThatIsThere() {
        assertEquals("4 hours", DurationWords.of(Duration.ofHours(4)));
        assertEquals("1 hour 30 minutes", DurationWords.of(Duration.ofMinutes(90)));
        assertEquals("1 minute 30 seconds", DurationWords.of(Duration.ofSeconds(90)));
        assertEquals("1 hour 1 second", DurationWords.of(Duration.ofSeconds(3601)));
    }
}
