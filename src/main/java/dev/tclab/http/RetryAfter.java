package dev.tclab.http;

import jakarta.ws.rs.core.Response;
import java.time.Duration;

/**
 * A refusal's wait as the {@code Retry-After} header gives it: whole seconds, rounded up and at least one, so a client
 * that waits exactly that long is never refused again for waiting too little (and never told to retry at once).
 */
public final class RetryAfter {

    private RetryAfter() {}

    /** The wait in whole seconds, rounded up, at least 1: also what the refusal's message should say. */
    public static long seconds(Duration wait) {
        return Math.max(1, (wait.toMillis() + 999) / 1000);
    }

    /** {@code refusal} with a {@code Retry-After} of {@link #seconds(Duration)}. */
    public static Response on(Response refusal, Duration wait) {
        return Response.fromResponse(refusal)
                .header("Retry-After", seconds(wait))
                .build();
    }
}
