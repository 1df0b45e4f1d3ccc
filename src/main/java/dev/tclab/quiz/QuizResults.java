package dev.tclab.quiz;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Where learners' quiz answers are kept: every attempt, per learner, lesson and quiz. */
public interface QuizResults {

    /** Keeps an attempt; once this returns, the attempt is stored. */
    void record(String learner, String lesson, QuizAttempt attempt);

    /** The learner's latest attempt at each quiz of the lesson they answered, by quiz id. */
    default Map<String, QuizAttempt> attempts(String learner, String lesson) {
        Map<String, QuizAttempt> latest = new LinkedHashMap<>();
        history(learner, lesson).forEach(a -> latest.put(a.quizId(), a));
        return Map.copyOf(latest);
    }

    /** Every attempt of the learner at the lesson's quizzes, oldest first. */
    List<QuizAttempt> history(String learner, String lesson);
}
