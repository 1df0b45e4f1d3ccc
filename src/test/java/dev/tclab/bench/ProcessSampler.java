package dev.tclab.bench;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Samples another process's resident memory (VmRSS) and open file handles on a thread of its own, every
 * {@code periodMillis}, until closed; keeps the peaks. A sample that cannot be read (the process gone) ends it with
 * that error, rethrown by {@link #close()}.
 */
final class ProcessSampler implements AutoCloseable {

    private final ProcessUsage process;
    private final long periodMillis;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile long peakRssBytes;
    private volatile int peakFileHandles;
    private volatile int samples;
    private volatile IOException failure;

    private ProcessSampler(ProcessUsage process, long periodMillis) {
        this.process = process;
        this.periodMillis = periodMillis;
        this.thread = new Thread(this::run, "process-sampler");
        this.thread.setDaemon(true);
    }

    static ProcessSampler start(ProcessUsage process, long periodMillis) {
        ProcessSampler sampler = new ProcessSampler(process, periodMillis);
        sampler.thread.start();
        return sampler;
    }

    private void run() {
        try {
            while (running) {
                long rss = process.rssBytes();
                int fds = process.fileHandles();
                peakRssBytes = Math.max(peakRssBytes, rss);
                peakFileHandles = Math.max(peakFileHandles, fds);
                samples++;
                Thread.sleep(periodMillis);
            }
        } catch (IOException e) {
            failure = e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    long peakRssBytes() {
        return peakRssBytes;
    }

    int peakFileHandles() {
        return peakFileHandles;
    }

    int samples() {
        return samples;
    }

    /** Stops sampling; fails when a sample could not be read. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join();
        if (failure != null) {
            throw new UncheckedIOException("could not sample the process: " + failure.getMessage(), failure);
        }
    }
}
