package dev.tclab.scheduling;

import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;
import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import org.jboss.logging.Logger;

/**
 * Runs a {@link Job}: records its start and its end, and catches and logs everything it throws (issue 43, row 1: an
 * OutOfMemoryError ended the scheduler's trigger thread, and culling and dead-lab detection stopped with no word).
 */
@Job
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_AFTER)
public class JobGuard {

    private static final Logger LOG = Logger.getLogger(JobGuard.class);

    private final JobRuns runs;

    public JobGuard(JobRuns runs) {
        this.runs = runs;
    }

    @AroundInvoke
    Object guard(InvocationContext invocation) {
        String job = JobRuns.name(invocation.getMethod());
        runs.started(job);
        try {
            return invocation.proceed();
        } catch (Throwable failure) { // an Error too: the job must run again at its next tick
            if (shuttingDown()) {
                // A tick that began as the app stopped fails on the beans already gone; there is no next tick.
                LOG.debugf(failure, "scheduled job %s ended by the app's shutdown", JobRuns.shortName(job));
                return null;
            }
            runs.failed(job, failure);
            LOG.errorf(failure, "scheduled job %s failed; it runs again at its next tick", JobRuns.shortName(job));
            return null;
        } finally {
            runs.ended(job);
        }
    }

    private static boolean shuttingDown() {
        ArcContainer container = Arc.container();
        return container == null || !container.isRunning();
    }
}
