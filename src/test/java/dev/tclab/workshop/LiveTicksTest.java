package dev.tclab.workshop;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import io.smallrye.mutiny.subscription.BackPressureFailure;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/**
 * The live streams' clock does not fail a reader that stops asking for a while (a busy browser, a full socket): it
 * skips the ticks that reader missed. The stream as it was (the same timer and hand-over to a worker, nothing
 * dropped) runs beside it under the same reader and fails with the {@code BackPressureFailure} of issue 42; its
 * failure is the test's clock (no sleep, no timed assertion): by then the live ticks have overflowed as much.
 */
class LiveTicksTest {

    private static final Duration FAST = Duration.ofMillis(1);
    private static final Duration PATIENCE = Duration.ofMinutes(2);

    @Test
    void aSlowReaderMissesTicksButItsStreamGoesOn() {
        ExecutorService workers = Executors.newFixedThreadPool(2);
        try {
            AssertSubscriber<Long> before = Multi.createFrom()
                    .ticks()
                    .startingAfter(FAST)
                    .every(FAST)
                    .emitOn(workers)
                    .subscribe()
                    .withSubscriber(AssertSubscriber.create(1));
            AssertSubscriber<Long> live = LiveTicks.every(FAST, Duration.ofHours(1), workers)
                    .subscribe()
                    .withSubscriber(AssertSubscriber.create(1));

            before.awaitFailure(PATIENCE).assertFailedWith(BackPressureFailure.class, "Could not emit tick");
            System.out.println("Without dropping, a reader that took 1 tick failed: " + before.getFailure());

            assertThat(live.getFailure()).isNull();
            assertThat(live.getItems()).hasSize(1);
            // It goes on: each tick asked for comes, none of a backlog piled up while the reader did not ask.
            live.request(3);
            live.awaitItems(4, PATIENCE);
            assertThat(live.getFailure()).isNull();
            assertThat(live.isCancelled()).isFalse();
            assertThat(live.getItems()).hasSize(4).isSorted();
            live.cancel();
        } finally {
            workers.shutdownNow();
        }
    }

    /** The stream ends after its span's number of ticks, and a reader that asks promptly gets every one of them. */
    @Test
    void theStreamEndsAfterItsSpan() {
        ExecutorService workers = Executors.newFixedThreadPool(2);
        try {
            AssertSubscriber<Long> reader = LiveTicks.every(FAST, Duration.ofMillis(50), workers)
                    .subscribe()
                    .withSubscriber(AssertSubscriber.create(Long.MAX_VALUE));
            reader.awaitCompletion(PATIENCE);
            assertThat(reader.getItems()).hasSizeLessThanOrEqualTo(50).isNotEmpty();
        } finally {
            workers.shutdownNow();
        }
    }
}
