package dev.tclab.workshop;

import io.smallrye.mutiny.Multi;
import java.time.Duration;
import java.util.concurrent.Executor;

/**
 * The clock of the live dashboard and projector streams: a tick every period for at most {@code max}, handed to
 * {@code executor} (the dashboard is read from the database there), that never fails a slow reader and stops its
 * timer when the stream ends.
 *
 * <p>A tick nobody is ready for is dropped, both where the timer fires and where the executor hands it on: a page
 * that reads slowly gets the next tick it asks for, never a backlog. The stream's end is a number of ticks taken
 * from the timer itself: Mutiny's {@code select().first(Duration)} completes the reader but leaves the timer running,
 * which is what logged {@code BackPressureFailure: Could not emit tick 512} about 13 minutes into every live page
 * (a 10-minute stream is 400 ticks; the hand-over had asked for 512).
 */
final class LiveTicks {

    private LiveTicks() {}

    static Multi<Long> every(Duration period, Duration max, Executor executor) {
        return Multi.createFrom()
                .ticks()
                .startingAfter(Duration.ofMillis(1))
                .every(period)
                .select()
                .first(Math.max(1, max.toMillis() / period.toMillis()))
                .onOverflow()
                .drop()
                .emitOn(executor)
                .onOverflow()
                .drop();
    }
}
