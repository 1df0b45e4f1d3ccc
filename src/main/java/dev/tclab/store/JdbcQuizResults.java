package dev.tclab.store;

import dev.tclab.quiz.QuizAttempt;
import dev.tclab.quiz.QuizResults;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/** Every quiz attempt, kept in the database; the latest per quiz is derived from the history. */
@ApplicationScoped
public class JdbcQuizResults implements QuizResults {

    private final Jdbc jdbc;

    public JdbcQuizResults(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public void record(String learner, String lesson, QuizAttempt attempt) {
        jdbc.run("save your answer", c -> {
            jdbc.ensureLearner(c, learner);
            try (PreparedStatement s = c.prepareStatement("INSERT INTO quiz_attempt"
                    + " (learner_id, lesson, quiz_id, choices, correct, answered_at) VALUES (?, ?, ?, ?, ?, ?)")) {
                s.setString(1, learner);
                s.setString(2, lesson);
                s.setString(3, attempt.quizId());
                s.setString(4, attempt.choices().stream().map(String::valueOf).collect(Collectors.joining(",")));
                s.setBoolean(5, attempt.correct());
                s.setObject(6, jdbc.now());
                return s.executeUpdate();
            }
        });
    }

    @Override
    public List<QuizAttempt> history(String learner, String lesson) {
        return jdbc.run("read your quiz answers", c -> {
            try (PreparedStatement s = c.prepareStatement("SELECT quiz_id, choices, correct FROM quiz_attempt"
                    + " WHERE learner_id = ? AND lesson = ? ORDER BY id")) {
                s.setString(1, learner);
                s.setString(2, lesson);
                List<QuizAttempt> attempts = new ArrayList<>();
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        attempts.add(new QuizAttempt(rs.getString(1), choices(rs.getString(2)), rs.getBoolean(3)));
                    }
                }
                return List.copyOf(attempts);
            }
        });
    }

    private static List<Integer> choices(String csv) {
        return csv.isEmpty()
                ? List.of()
                : Arrays.stream(csv.split(",")).map(Integer::valueOf).toList();
    }
}
