package dev.tclab.store;

import dev.tclab.quiz.OptionOrder;
import dev.tclab.quiz.QuizOrders;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/** The option order each learner answered each quiz in, in the database. */
@ApplicationScoped
public class JdbcQuizOrders implements QuizOrders {

    private final Jdbc jdbc;

    public JdbcQuizOrders(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Map<String, OptionOrder> orders(String learner, String lesson) {
        return jdbc.run("read the order of your quizzes' options", c -> {
            try (PreparedStatement s = c.prepareStatement(
                    "SELECT quiz_id, shown FROM quiz_option_order WHERE learner_id = ? AND lesson = ?")) {
                s.setString(1, learner);
                s.setString(2, lesson);
                Map<String, OptionOrder> orders = new HashMap<>();
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        orders.put(rs.getString(1), OptionOrder.ofCsv(rs.getString(2)));
                    }
                }
                return Map.copyOf(orders);
            }
        });
    }

    @Override
    public void keep(String learner, String lesson, String quizId, OptionOrder order) {
        jdbc.run("save the order of your quiz's options", c -> {
            jdbc.ensureLearner(c, learner);
            // Update, else insert; a racing insert of the same row makes the update right again.
            if (update(c, learner, lesson, quizId, order) == 0) {
                try (PreparedStatement s = c.prepareStatement("INSERT INTO quiz_option_order"
                        + " (learner_id, lesson, quiz_id, shown, updated_at) VALUES (?, ?, ?, ?, ?)")) {
                    s.setString(1, learner);
                    s.setString(2, lesson);
                    s.setString(3, quizId);
                    s.setString(4, order.csv());
                    s.setObject(5, jdbc.now());
                    s.executeUpdate();
                } catch (SQLException e) {
                    if (!Jdbc.UNIQUE_VIOLATION.equals(e.getSQLState())) {
                        throw e;
                    }
                    update(c, learner, lesson, quizId, order);
                }
            }
            return null;
        });
    }

    private int update(Connection c, String learner, String lesson, String quizId, OptionOrder order)
            throws SQLException {
        try (PreparedStatement s = c.prepareStatement("UPDATE quiz_option_order SET shown = ?, updated_at = ?"
                + " WHERE learner_id = ? AND lesson = ? AND quiz_id = ?")) {
            s.setString(1, order.csv());
            s.setObject(2, jdbc.now());
            s.setString(3, learner);
            s.setString(4, lesson);
            s.setString(5, quizId);
            return s.executeUpdate();
        }
    }
}
