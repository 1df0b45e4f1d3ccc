package dev.tclab.grading;

import java.time.Instant;
import java.util.Locale;
import java.util.UUID;

/** Check runs for tests outside this package (the stores'), without a lab or a runner. */
public final class TestCheckRuns {

    private TestCheckRuns() {}

    public static CheckRun run(String labId, String owner, String lesson, String stepId) {
        return run(labId, owner, lesson, stepId, Instant.now());
    }

    public static CheckRun run(String labId, String owner, String lesson, String stepId, Instant startedAt) {
        return new CheckRun(UUID.randomUUID().toString(), labId, owner, lesson, stepId, startedAt);
    }

    /** Ends the run in a state by its API name ("passed", "error", ...). */
    public static void finish(CheckRun run, String state, String detail) {
        run.finish(CheckRun.State.valueOf(state.toUpperCase(Locale.ROOT)), detail);
    }
}
