package dev.tclab.quiz;

import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Quiz results kept in memory, lost on restart: the app keeps them in its database (a bean that replaces this
 * one); this is the reference the store contract and the write benchmark compare with.
 */
@ApplicationScoped
@DefaultBean
public class InMemoryQuizResults implements QuizResults {

    private final Map<String, List<QuizAttempt>> byLearnerAndLesson = new ConcurrentHashMap<>();

    @Override
    public void record(String learner, String lesson, QuizAttempt attempt) {
        List<QuizAttempt> history = byLearnerAndLesson.computeIfAbsent(key(learner, lesson), k -> new ArrayList<>());
        synchronized (history) {
            history.add(attempt);
        }
    }

    @Override
    public List<QuizAttempt> history(String learner, String lesson) {
        List<QuizAttempt> history = byLearnerAndLesson.getOrDefault(key(learner, lesson), List.of());
        synchronized (history) {
            return List.copyOf(history);
        }
    }

    private static String key(String learner, String lesson) {
        return learner + '/' + lesson;
    }
}
