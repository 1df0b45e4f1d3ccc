package dev.tclab.quiz;

import java.util.Map;

/** Where the option order each learner answered a quiz in is kept (the database). */
public interface QuizOrders {

    /** The orders kept for the learner's quizzes of one lesson, by quiz id. */
    Map<String, OptionOrder> orders(String learner, String lesson);

    /** Keeps the order, replacing one kept before (a lesson edit changed the quiz's options). */
    void keep(String learner, String lesson, String quizId, OptionOrder order);
}
