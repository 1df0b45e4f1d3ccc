package dev.tclab.quiz;

import java.util.List;
import java.util.Map;

/** Where learners' quiz answers are kept: every attempt, per learner, lesson and quiz. */
public interface QuizResults {

    /** Keeps an attempt; once this returns, the attempt is stored. */
    void record(String learner, String lesson, QuizAttempt attempt);

    /** The learner's latest attempt at each quiz of the lesson they answered, by quiz id. */
    Map<String, QuizAttempt> attempts(String learner, String lesson);

    /** Every attempt of the learner at the lesson's quizzes, oldest first. */
    List<QuizAttempt> history(String learner, String lesson);
}
