package dev.tclab.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What one run of the class benchmark measured (its label says how the labs started, e.g. cold): its learners (each
 * with their own timings), the floors measured in the same run, the cost of each phase, the app's CPU and memory
 * sampled every second, and the server's own view.
 */
record ClassRun(
        String label,
        List<Learner> learners,
        List<Phase> phases,
        List<Double> startFloorMillis,
        List<Double> echoFloorMillis,
        List<Double> checkFloorMillis,
        List<Double> checkFloorMbps,
        List<Double> appCpuPercent,
        List<Double> appRssMib,
        long labMemoryBytes,
        long labMemoryWatchedBytes,
        Metrics serverStart,
        Metrics serverCheck) {

    /**
     * A phase's length and what it cost: cores used on average over it by the app, the lab containers, their shims
     * and the engine's daemons, and by the whole machine; the app's and the shims' resident memory at its end.
     */
    record Phase(
            String name,
            double seconds,
            double appCores,
            double labsCores,
            double shimsCores,
            double daemonsCores,
            double machineCores,
            long appRssBytes,
            long shimsRssBytes) {}

    /** Every keystroke's echo time of every learner, in ms. */
    List<Double> echoMillis() {
        List<Double> all = new ArrayList<>();
        learners.stream().filter(l -> !l.failed()).forEach(l -> {
            for (long nanos : l.echoNanos) {
                all.add(nanos / 1e6);
            }
        });
        return all;
    }

    /** Every statistics frame's delay of every learner, in ms. */
    List<Double> statsDelayMillis() {
        List<Double> all = new ArrayList<>();
        learners.stream().filter(l -> !l.failed()).forEach(l -> {
            synchronized (l.statsDelayMillis) {
                all.addAll(l.statsDelayMillis);
            }
        });
        return all;
    }

    List<String> failures() {
        return learners.stream().filter(Learner::failed).map(Learner::failure).toList();
    }

    /** Collects a run as it goes; samples the app's CPU and memory once a second until built. */
    static final class Builder {
        private final String label;
        private final List<Learner> learners;
        private final List<Phase> phases = new ArrayList<>();
        final List<Double> startFloorMillis = Collections.synchronizedList(new ArrayList<>());
        final List<Double> echoFloorMillis = Collections.synchronizedList(new ArrayList<>());
        private final List<Double> checkFloorMillis = new ArrayList<>();
        private final List<Double> checkFloorMbps = new ArrayList<>();
        private final List<Double> appCpuPercent = Collections.synchronizedList(new ArrayList<>());
        private final List<Double> appRssMib = Collections.synchronizedList(new ArrayList<>());
        private final Thread sampler;
        long labMemoryBytes;
        long labMemoryWatchedBytes;
        Metrics serverStart;
        Metrics serverCheck;

        Builder(String label, List<Learner> learners, ProcessUsage app) {
            this.label = label;
            this.learners = learners;
            this.sampler = new Thread(() -> sample(app), "app-usage");
            sampler.setDaemon(true);
            sampler.start();
        }

        private void sample(ProcessUsage app) {
            try {
                long cpu = app.cpuNanos();
                long wall = System.nanoTime();
                while (!Thread.currentThread().isInterrupted()) {
                    Thread.sleep(1000);
                    long cpuNow = app.cpuNanos();
                    long wallNow = System.nanoTime();
                    appCpuPercent.add(100.0 * (cpuNow - cpu) / (wallNow - wall));
                    appRssMib.add(app.rssBytes() / 1048576.0);
                    cpu = cpuNow;
                    wall = wallNow;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                System.err.println("app usage sampling ended: " + e);
            }
        }

        void phase(String name, ClassBenchmark.Usage before, ClassBenchmark.Usage after) {
            double wall = after.nanoTime() - before.nanoTime();
            phases.add(new Phase(
                    name,
                    wall / 1e9,
                    (after.appCpuNanos() - before.appCpuNanos()) / wall,
                    (after.labsCpuNanos() - before.labsCpuNanos()) / wall,
                    (after.shimsCpuNanos() - before.shimsCpuNanos()) / wall,
                    (after.daemonsCpuNanos() - before.daemonsCpuNanos()) / wall,
                    (after.machineBusyNanos() - before.machineBusyNanos()) / wall,
                    after.appRssBytes(),
                    after.shimsRssBytes()));
        }

        synchronized void checkFloor(double millis, double mbps) {
            checkFloorMillis.add(millis);
            checkFloorMbps.add(mbps);
        }

        ClassRun build() {
            sampler.interrupt();
            return new ClassRun(
                    label,
                    learners,
                    List.copyOf(phases),
                    List.copyOf(startFloorMillis),
                    List.copyOf(echoFloorMillis),
                    List.copyOf(checkFloorMillis),
                    List.copyOf(checkFloorMbps),
                    List.copyOf(appCpuPercent),
                    List.copyOf(appRssMib),
                    labMemoryBytes,
                    labMemoryWatchedBytes,
                    serverStart,
                    serverCheck);
        }
    }
}
