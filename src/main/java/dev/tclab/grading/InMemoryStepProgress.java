package dev.tclab.grading;

import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** {@link StepProgress} in memory: lost on restart. */
@ApplicationScoped
@DefaultBean
public class InMemoryStepProgress implements StepProgress {

    private final Map<String, Map<String, Boolean>> byLearnerAndLesson = new ConcurrentHashMap<>();

    @Override
    public void record(String learner, String lesson, String checkId, boolean passed) {
        byLearnerAndLesson
                .computeIfAbsent(learner + "\n" + lesson, k -> new ConcurrentHashMap<>())
                .put(checkId, passed);
    }

    @Override
    public Map<String, Boolean> checks(String learner, String lesson) {
        return Map.copyOf(byLearnerAndLesson.getOrDefault(learner + "\n" + lesson, Map.of()));
    }
}
