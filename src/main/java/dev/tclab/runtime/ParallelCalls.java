package dev.tclab.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A lab start's calls run in parallel under one deadline ({@link System#nanoTime}), the same way on every runtime:
 * every call is waited for, and the first failure is thrown once all finished, as a {@link LabStartException} (the
 * engine refused, or the deadline passed) or an {@link EngineUnavailableException} (the engine did not answer).
 */
public final class ParallelCalls {

    /** How a runtime words its engine's failures. */
    public interface EngineFailures {

        /** The start failed because the engine refused a call; null when {@code e} is no refusal. */
        LabStartException refused(RuntimeException e);

        /** The engine could not be reached. */
        EngineUnavailableException unavailable(RuntimeException e);
    }

    private final ExecutorService pool;
    private final Duration startTimeout;
    private final EngineFailures failures;

    public ParallelCalls(ExecutorService pool, Duration startTimeout, EngineFailures failures) {
        this.pool = pool;
        this.startTimeout = startTimeout;
        this.failures = failures;
    }

    /** Runs the tasks in parallel and waits for all; the first failure (after all finished) is thrown. */
    public <T> List<T> all(List<Callable<T>> tasks, long deadline)
            throws LabStartException, EngineUnavailableException {
        return await(tasks.stream().map(pool::submit).toList(), deadline);
    }

    /** Waits for all the tasks; the first failure (after all finished) is thrown. */
    public <T> List<T> await(List<Future<T>> futures, long deadline)
            throws LabStartException, EngineUnavailableException {
        List<T> results = new ArrayList<>();
        Exception first = null;
        for (Future<T> future : futures) {
            try {
                results.add(future.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
            } catch (ExecutionException e) {
                first = first == null ? (Exception) e.getCause() : first;
            } catch (TimeoutException e) {
                future.cancel(true);
                first = first == null
                        ? new LabStartException(
                                "the lab did not become ready within " + startTimeout.toSeconds() + " s")
                        : first;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LabStartException("interrupted while starting", e);
            }
        }
        if (first instanceof LabStartException lse) {
            throw lse;
        }
        if (first instanceof EngineUnavailableException eue) {
            throw eue;
        }
        if (first != null) {
            RuntimeException failure = (RuntimeException) first;
            LabStartException refused = failures.refused(failure);
            if (refused != null) {
                throw refused;
            }
            throw failures.unavailable(failure);
        }
        return results;
    }

    /** What is left until the deadline, at least a second: a step that starts late still gets a chance to answer. */
    public static Duration remaining(long deadline) {
        return Duration.ofNanos(Math.max(Duration.ofSeconds(1).toNanos(), deadline - System.nanoTime()));
    }
}
