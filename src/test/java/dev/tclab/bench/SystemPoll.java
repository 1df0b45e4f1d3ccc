package dev.tclab.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Polls {@code GET /api/system} on a thread of its own, one request at a time, one every {@code periodMillis} (at
 * once when the previous one took longer), until closed: the latencies a page's status poll would see. A stalled
 * request is one long sample, as the page would see it, not many. Answers other than 200 are counted apart.
 */
final class SystemPoll implements AutoCloseable {

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    private final HttpRequest request;
    private final long periodMillis;
    private final List<Double> millis = Collections.synchronizedList(new ArrayList<>());
    private final List<String> failures = Collections.synchronizedList(new ArrayList<>());
    private final Thread thread;
    private volatile boolean running = true;

    private SystemPoll(URI base, long periodMillis) {
        this.request = HttpRequest.newBuilder(base.resolve("/api/system"))
                .timeout(Duration.ofSeconds(60))
                .build();
        this.periodMillis = periodMillis;
        this.thread = new Thread(this::run, "system-poll");
        this.thread.setDaemon(true);
    }

    static SystemPoll start(URI base, long periodMillis) {
        SystemPoll poll = new SystemPoll(base, periodMillis);
        poll.thread.start();
        return poll;
    }

    private void run() {
        long next = System.nanoTime();
        while (running) {
            long t0 = System.nanoTime();
            try {
                int status = http.send(request, HttpResponse.BodyHandlers.discarding())
                        .statusCode();
                if (status == 200) {
                    millis.add((System.nanoTime() - t0) / 1e6);
                } else {
                    failures.add("status " + status);
                }
            } catch (java.io.IOException e) {
                failures.add(e.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            next += periodMillis * 1_000_000L;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                try {
                    Thread.sleep(wait / 1_000_000L, (int) (wait % 1_000_000L));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            } else {
                next = System.nanoTime();
            }
        }
    }

    /** Stops polling after the request in flight; the latencies of the answered polls (ms). */
    List<Double> stop() throws InterruptedException {
        running = false;
        thread.join();
        return List.copyOf(millis);
    }

    /** Polls that failed or were not answered 200, each as what went wrong. */
    List<String> failures() {
        return List.copyOf(failures);
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
