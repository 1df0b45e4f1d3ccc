package dev.tclab.quiz;

import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Quiz results kept in memory: lost on restart. A persistent store replaces it by declaring another bean. */
@ApplicationScoped
@DefaultBean
public class InMemoryQuizResults implements QuizResults {

    private final Map<String, Map<String, QuizAttempt>> byLearnerAndLesson = new ConcurrentHashMap<>();

    @Override
    public void record(String learner, String lesson, QuizAttempt attempt) {
        byLearnerAndLesson.computeIfAbsent(key(learner, lesson), k -> new ConcurrentHashMap<>())
                .put(attempt.quizId(), attempt);
    }

    @Override
    public Map<String, QuizAttempt> attempts(String learner, String lesson) {
        return Map.copyOf(byLearnerAndLesson.getOrDefault(key(learner, lesson), Map.of()));
    }

    private static String key(String learner, String lesson) {
        return learner + '/' + lesson;
    }
}
