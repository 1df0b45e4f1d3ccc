package dev.tclab.workshop;

import java.time.Instant;
import java.util.Collection;
import java.util.List;

/** Reads a class's progress from the existing stores (check runs, quiz attempts) in a few queries. Calls block. */
public interface ProgressReader {

    /**
     * A learner's check runs of one step.
     *
     * @param firstPassedAt when a run of it first passed, or null
     * @param lastState     state of the latest run (passed, failed, error, measuring...)
     * @param lastDetail    the latest run's detail line
     * @param lastRunId     the latest run's id (its results can be read in full)
     */
    record StepRuns(
            String learnerId,
            String lesson,
            String stepId,
            int attempts,
            Instant firstPassedAt,
            Instant firstRunAt,
            String lastState,
            String lastDetail,
            Instant lastAt,
            String lastRunId,
            String lastLabId) {}

    /** A learner's answers to one quiz. */
    record QuizAnswers(
            String learnerId,
            String lesson,
            String quizId,
            int attempts,
            Instant firstCorrectAt,
            boolean latestCorrect,
            Instant lastAt) {}

    /** One check's result of a run, as the API shows it (JSON summary) and its bounded raw output. */
    record CheckOutput(String checkId, String status, String summary, String rawOutput) {}

    List<StepRuns> steps(Collection<String> learners, Collection<String> lessons);

    List<QuizAnswers> quizzes(Collection<String> learners, Collection<String> lessons);

    /** The results of one run, in order. */
    List<CheckOutput> results(String runId);
}
