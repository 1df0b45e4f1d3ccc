package dev.tclab.grading;

import dev.tclab.config.TclabConfig;
import dev.tclab.scheduling.Job;
import io.quarkus.runtime.Startup;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import org.jboss.logging.Logger;

/**
 * Deletes kept check runs nobody needs any more, so a class pressing Check all day, or a script pressing it in a
 * loop, does not grow the database without bound: each learner's step keeps its newest
 * {@code tclab.grading.keep-runs-per-step} runs, and runs older than {@code tclab.grading.keep-runs-for} go but for
 * each step's latest (what the class dashboard's "last check" opens). Attempt counts and first passes are kept apart
 * from the runs (see {@link CheckRunLog#prune}), so progress and the workshop export do not change.
 */
@ApplicationScoped
@Startup // a wrong setting stops the start with its reason, not the first pruning round
public class CheckRunRetention {

    private static final Logger LOG = Logger.getLogger(CheckRunRetention.class);
    /** Runs deleted per round at most: a round stays short, and a backlog (after an upgrade) goes over a few rounds. */
    static final int MAX_RUNS_PER_ROUND = 20_000;

    private final CheckRunLog log;
    private final int keepPerStep;
    private final Duration keepFor;
    private final InstantSource clock;

    @Inject
    public CheckRunRetention(CheckRunLog log, TclabConfig config, InstantSource clock) {
        this(log, config.grading().keepRunsPerStep(), config.grading().keepRunsFor(), clock);
    }

    CheckRunRetention(CheckRunLog log, int keepPerStep, Duration keepFor, InstantSource clock) {
        // A step's latest run answers the page and the host; fewer than one would leave nothing to show.
        if (keepPerStep < 1) {
            throw new IllegalArgumentException("tclab.grading.keep-runs-per-step is " + keepPerStep
                    + "; it must be at least 1 (the default, 10, keeps every run a lab page can show).");
        }
        if (keepFor.isNegative() || keepFor.isZero()) {
            throw new IllegalArgumentException(
                    "tclab.grading.keep-runs-for is " + keepFor + "; it must be longer than zero, e.g. 30d.");
        }
        this.log = log;
        this.keepPerStep = keepPerStep;
        this.keepFor = keepFor;
        this.clock = clock;
    }

    /** One round of pruning; on a busy database the next round goes on where this one stopped. */
    @Job
    @Scheduled(
            every = "10m",
            delay = 1,
            delayUnit = java.util.concurrent.TimeUnit.MINUTES,
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void pruneInBackground() {
        try {
            int deleted = prune();
            if (deleted > 0) {
                LOG.infof(
                        "deleted %d old check runs (keeping %d per learner and step, and %s)",
                        deleted, keepPerStep, keepFor);
            }
        } catch (RuntimeException e) {
            LOG.warnf("old check runs stay until the next round: %s", e.getMessage());
        }
    }

    /** The rule in words, for a learner asking for a run that is gone: "each step keeps its newest 10 runs, ...". */
    public String rule() {
        long hours = keepFor.toHours();
        String age = hours >= 24 && hours % 24 == 0
                ? hours / 24 + " days"
                : hours >= 1 ? hours + " hours" : keepFor.toString();
        return "each step keeps its newest " + keepPerStep + " runs, and only its latest after " + age;
    }

    /** Deletes what the retention no longer keeps, at most {@value #MAX_RUNS_PER_ROUND} runs; how many went. */
    public int prune() {
        Instant now = clock.instant();
        return log.prune(keepPerStep, now.minus(keepFor), MAX_RUNS_PER_ROUND);
    }
}
