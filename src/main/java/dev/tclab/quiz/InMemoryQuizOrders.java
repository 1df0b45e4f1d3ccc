package dev.tclab.quiz;

import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Kept option orders in memory, lost on restart: the app keeps them in its database (a bean replacing this one). */
@ApplicationScoped
@DefaultBean
public class InMemoryQuizOrders implements QuizOrders {

    private final Map<String, Map<String, OptionOrder>> byLearnerAndLesson = new ConcurrentHashMap<>();

    @Override
    public Map<String, OptionOrder> orders(String learner, String lesson) {
        return Map.copyOf(byLearnerAndLesson.getOrDefault(learner + '/' + lesson, Map.of()));
    }

    @Override
    public void keep(String learner, String lesson, String quizId, OptionOrder order) {
        byLearnerAndLesson
                .computeIfAbsent(learner + '/' + lesson, k -> new ConcurrentHashMap<>())
                .put(quizId, order);
    }
}
