package dev.tclab.grading.run;

import dev.tclab.grading.spec.Measure;
import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Baselines kept in memory, lost on restart: the app keeps them in its database (a bean that replaces this one). */
@ApplicationScoped
@DefaultBean
public class InMemoryBaselineStore implements BaselineStore {

    private final Map<String, Map<String, Measure>> byLab = new ConcurrentHashMap<>();

    @Override
    public void record(String labId, String name, Measure value) {
        byLab.computeIfAbsent(labId, id -> new ConcurrentHashMap<>()).put(name, value);
    }

    @Override
    public Map<String, Measure> all(String labId) {
        return Map.copyOf(byLab.getOrDefault(labId, Map.of()));
    }

    @Override
    public void forget(String labId) {
        byLab.remove(labId);
    }
}
