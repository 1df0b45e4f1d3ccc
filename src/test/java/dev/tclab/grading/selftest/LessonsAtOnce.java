package dev.tclab.grading.selftest;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;

/**
 * Self-tests of several lessons at once, as a class of learners would go through them: each in its own lab, its steps
 * in order, the app's own measurement slots deciding which of their flows overlap (a capped flow takes a small share
 * of a slot, a line-rate one a whole slot). Every lesson starts when the class starts it; each dynamic test then waits
 * for its own and reports it under its own name. {@code -Dit.lessons-at-once=1} runs them one after another, to tell
 * a lesson's own failure from an interaction or to take the alone figures.
 */
final class LessonsAtOnce implements AutoCloseable {

    /** A lesson's self-test and its assertions. */
    @FunctionalInterface
    interface Body {
        void run() throws Exception;
    }

    private static final int AT_ONCE = Integer.getInteger("it.lessons-at-once", Integer.MAX_VALUE);

    private final ExecutorService pool;
    private final Map<String, Future<?>> runs = new LinkedHashMap<>();

    /** Starts {@code lessons} (name to the self-test and its assertions), in their order, as many at once as allowed. */
    LessonsAtOnce(Map<String, Body> lessons) {
        this(lessons, Integer.MAX_VALUE);
    }

    /**
     * Starts {@code lessons} in their order, at most {@code atMost} at once (1: one after another, each when the one
     * before has ended, passed or not).
     */
    LessonsAtOnce(Map<String, Body> lessons, int atMost) {
        pool = Executors.newFixedThreadPool(Math.max(1, Math.min(Math.min(AT_ONCE, atMost), lessons.size())), r -> {
            Thread thread = new Thread(r, "lesson-self-test");
            thread.setDaemon(true);
            return thread;
        });
        lessons.forEach((name, body) -> runs.put(name, pool.submit(() -> {
            body.run();
            return null;
        })));
    }

    /** One dynamic test a lesson, by its name, each failing as its lesson's run did. */
    Stream<DynamicTest> tests() {
        return runs.entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> await(e.getValue())));
    }

    private static void await(Future<?> run) throws Throwable {
        try {
            run.get();
        } catch (ExecutionException e) {
            throw e.getCause();
        }
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
