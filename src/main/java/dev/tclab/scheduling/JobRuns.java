package dev.tclab.scheduling;

import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduler;
import io.quarkus.scheduler.Trigger;
import io.quarkus.scheduler.common.runtime.util.SchedulerUtils;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.lang.reflect.Method;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When each of the app's {@link Job}s last ran, and which have stalled: not run for {@value #STALLED_PERIODS} of their
 * periods (counted from the app's start and the job's delay before its first run). A job's period and delay are its
 * {@code @Scheduled} {@code every} and {@code delay}, read as Quarkus reads them.
 */
@ApplicationScoped
public class JobRuns {

    /** Periods without a run after which a job counts as stalled. */
    static final int STALLED_PERIODS = 3;

    /** What is known of one job. */
    private static final class Entry {
        final Duration period;
        volatile Instant lastRun;
        volatile String lastFailure;

        Entry(Duration period, Instant firstDue) {
            this.period = period;
            this.lastRun = firstDue;
        }
    }

    /** A job that has not run for {@value #STALLED_PERIODS} of its periods. */
    public record Stalled(String job, Duration period, Duration since, String lastFailure) {

        /** In words, for the health check: "LabService.cullScheduled has not run for 95 s (every 30 s)". */
        public String describe() {
            return job + " has not run for " + since.toSeconds() + " s (every " + period.toSeconds() + " s)"
                    + (lastFailure == null ? "" : "; its last run failed: " + lastFailure);
        }
    }

    private final InstantSource clock;
    private final Map<String, Entry> jobs = new ConcurrentHashMap<>();

    @Inject
    public JobRuns(InstantSource clock) {
        this.clock = clock;
    }

    /** Learns every scheduled method from the scheduler as the app starts, so a job that never runs is seen too. */
    void onStart(@Observes StartupEvent event, Scheduler scheduler) {
        Instant now = clock.instant();
        for (Trigger trigger : scheduler.getScheduledJobs()) {
            Method method = method(trigger.getMethodDescription());
            Scheduled scheduled = method.getAnnotation(Scheduled.class);
            // A cron job has no period of its own to count in; the app has none.
            long every = scheduled.every().isEmpty()
                    ? 0
                    : SchedulerUtils.parseEveryAsMillis(scheduled).orElse(0);
            if (every > 0) {
                long delay = scheduled.delayUnit().toMillis(scheduled.delay())
                        + (scheduled.delayed().isEmpty() ? 0 : SchedulerUtils.parseDelayedAsMillis(scheduled));
                register(name(method), Duration.ofMillis(every), now.plusMillis(delay));
            }
        }
    }

    /** Watches {@code job}, run every {@code period}, due first at {@code firstDue}. */
    void register(String job, Duration period, Instant firstDue) {
        jobs.putIfAbsent(job, new Entry(period, firstDue));
    }

    void started(String job) {
        ran(job);
    }

    void ended(String job) {
        ran(job);
    }

    void failed(String job, Throwable failure) {
        Entry entry = jobs.get(job);
        if (entry != null) {
            entry.lastFailure = failure.toString();
        }
    }

    private void ran(String job) {
        Entry entry = jobs.get(job);
        if (entry != null) {
            entry.lastRun = clock.instant();
        }
    }

    /** The jobs watched, by name. */
    public List<String> jobs() {
        return jobs.keySet().stream().map(JobRuns::shortName).sorted().toList();
    }

    /** The jobs that have not run for {@value #STALLED_PERIODS} of their periods, by name. */
    public List<Stalled> stalled() {
        Instant now = clock.instant();
        return jobs.entrySet().stream()
                .filter(e -> Duration.between(e.getValue().lastRun, now)
                                .compareTo(e.getValue().period.multipliedBy(STALLED_PERIODS))
                        > 0)
                .map(e -> new Stalled(
                        shortName(e.getKey()),
                        e.getValue().period,
                        Duration.between(e.getValue().lastRun, now),
                        e.getValue().lastFailure))
                .sorted(Comparator.comparing(Stalled::job))
                .toList();
    }

    /** A job's key: its class and method, as the scheduler describes it ("dev.tclab.lab.LabService#cullScheduled"). */
    static String name(Method method) {
        return method.getDeclaringClass().getName() + "#" + method.getName();
    }

    /** "LabService.cullScheduled", for people. */
    static String shortName(String job) {
        return job.substring(job.lastIndexOf('.') + 1).replace('#', '.');
    }

    private static Method method(String description) {
        int hash = description.indexOf('#');
        try {
            Class<?> type = Class.forName(
                    description.substring(0, hash),
                    false,
                    Thread.currentThread().getContextClassLoader());
            String name = description.substring(hash + 1);
            return Arrays.stream(type.getDeclaredMethods())
                    .filter(m -> m.getName().equals(name) && m.isAnnotationPresent(Scheduled.class))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no @Scheduled method " + description));
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("the scheduled method " + description + " has no class", e);
        }
    }
}
