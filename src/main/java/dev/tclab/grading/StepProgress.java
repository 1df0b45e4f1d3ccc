package dev.tclab.grading;

import java.util.Map;

/** Which checks each learner has passed, per lesson. */
public interface StepProgress {

    /** Remembers the latest outcome of a check for a learner; once this returns, it is stored. */
    void record(String learner, String lesson, String checkId, boolean passed);

    /** Check id to whether its latest run passed, for one learner and lesson. */
    Map<String, Boolean> checks(String learner, String lesson);
}
