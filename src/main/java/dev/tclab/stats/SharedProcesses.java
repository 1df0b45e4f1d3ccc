package dev.tclab.stats;

import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.NodeNotFoundException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A hub's shared processes, at most one per key, each running while somebody watches it: made on the first watch,
 * stopped on the last unwatch, forgotten when its node is gone.
 */
final class SharedProcesses<K> {

    /** Makes the process of {@code key}; it calls {@code onGone} when its node is gone. */
    @FunctionalInterface
    interface Factory<K> {
        SharedNodeProcess create(K key, Runnable onGone);
    }

    private final Map<K, SharedNodeProcess> processes = new ConcurrentHashMap<>();

    /**
     * Adds {@code viewer} to the process of {@code key}, made by {@code factory} if none runs. On failure the viewer is
     * removed again (and the process stopped when nobody else watches it).
     */
    void watch(K key, StatsViewer viewer, Factory<K> factory) throws EngineUnavailableException, NodeNotFoundException {
        while (true) {
            SharedNodeProcess process =
                    processes.computeIfAbsent(key, k -> factory.create(k, () -> processes.remove(k)));
            try {
                if (process.watch(viewer)) {
                    return;
                }
            } catch (EngineUnavailableException | NodeNotFoundException | RuntimeException e) {
                unwatch(key, process, viewer);
                throw e;
            }
            // Stopped for good between the lookup and the watch: make a new one.
            processes.remove(key, process);
        }
    }

    /** Stops delivering to {@code viewer}; the process stops when nobody watches it any more. */
    void unwatch(K key, StatsViewer viewer) {
        SharedNodeProcess process = processes.get(key);
        if (process != null) {
            unwatch(key, process, viewer);
        }
    }

    /** Number of processes running or restarting. */
    int size() {
        return processes.size();
    }

    /** Number of processes running or restarting whose key is {@code which}. */
    int count(Predicate<K> which) {
        return (int) processes.keySet().stream().filter(which).count();
    }

    /** Sends {@code frame} to the viewers of every process whose key is {@code which}. */
    void publish(Predicate<K> which, Function<K, Object> frame) {
        processes.forEach((key, process) -> {
            if (which.test(key)) {
                process.publish(frame.apply(key));
            }
        });
    }

    void stopAll() {
        List.copyOf(processes.values()).forEach(SharedNodeProcess::stop);
    }

    private void unwatch(K key, SharedNodeProcess process, StatsViewer viewer) {
        if (process.unwatch(viewer)) {
            processes.remove(key, process);
            process.stop();
        }
    }
}
