package dev.tclab.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProcessLimitTest {

    @Test
    void shouldCountANodeAFewProcessesShortOfItsLimitAsAtIt() {
        assertThat(ProcessLimit.reached(256, 256)).isTrue();
        assertThat(ProcessLimit.reached(248, 256)).as("a bomb's count wavers").isTrue();
        assertThat(ProcessLimit.reached(247, 256)).isFalse();
        assertThat(ProcessLimit.reached(5, 256)).isFalse();
    }

    @Test
    void shouldNeverCountANodeWithoutALimitAsAtIt() {
        assertThat(ProcessLimit.reached(100_000, 0)).isFalse();
        assertThat(ProcessLimit.reached(100_000, -1)).isFalse();
    }
}
