package dev.tclab.common;

import java.util.concurrent.ThreadFactory;

/**
 * Threads for the app's own pools (Docker calls, checks, samplers). They are daemons so that a stuck Docker call can
 * never keep the JVM from exiting, and named so that a thread dump says whose they are.
 */
public final class WorkerThreads {

    private WorkerThreads() {}

    public static ThreadFactory named(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
