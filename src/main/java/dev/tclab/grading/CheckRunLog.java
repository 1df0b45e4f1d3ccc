package dev.tclab.grading;

import dev.tclab.grading.run.CheckResult;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * Where check runs are kept, so that a run can be read back after a restart. Each write either stores what it was
 * given or throws; a run whose start could not be kept does not start.
 */
public interface CheckRunLog {

    /** Keeps a run that is starting. */
    void started(CheckRun run);

    /** Keeps one check's result of a run at its position (0, 1, ...), with its raw outputs bounded. */
    void resultAdded(CheckRun run, int position, CheckResult result);

    /** Keeps a run's final state and detail. */
    void finished(CheckRun run);

    /**
     * A kept run of this learner in this lab. A run that never finished (the app stopped while it ran) is reported
     * as interrupted, with what it had measured so far.
     */
    Optional<CheckRunView> find(String labId, String runId, String owner);

    /** The newest finished run of each step this learner checked in this lab, by step id, so a reload shows them. */
    Map<String, CheckRunView> lastFinishedByStep(String labId, String owner);

    /**
     * Deletes kept runs (with their results) that are beyond the newest {@code keepPerStep} of their learner's step,
     * or started before {@code startedBefore}; a step's latest run stays, whatever its age, so the class dashboard's
     * "last check" still opens. Deletes at most {@code maxRuns}; a later call goes on.
     *
     * @return how many runs were deleted
     */
    int prune(int keepPerStep, Instant startedBefore, int maxRuns);
}
