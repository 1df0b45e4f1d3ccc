package dev.tclab.quiz;

import java.util.Map;

/** Where learners' quiz answers are kept: the latest attempt per learner, lesson and quiz. */
public interface QuizResults {

    void record(String learner, String lesson, QuizAttempt attempt);

    /** The learner's latest attempt at each quiz of the lesson they answered, by quiz id. */
    Map<String, QuizAttempt> attempts(String learner, String lesson);
}
