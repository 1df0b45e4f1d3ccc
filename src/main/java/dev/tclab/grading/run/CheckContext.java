package dev.tclab.grading.run;

import dev.tclab.grading.spec.CheckSpec;
import java.util.function.Consumer;

/**
 * What one run of a check carries through its samples: whose turn it takes for measurement slots ({@code learner}),
 * the lab, the check's id in progress events and the result, its spec, where progress goes, and whether it takes the
 * fast paths.
 */
record CheckContext(
        String learner, String labId, String checkId, CheckSpec spec, Consumer<CheckProgress> progress, boolean fast) {

    void report(CheckProgress.Stage stage, int attempt, String detail) {
        progress.accept(new CheckProgress(checkId, stage, attempt, detail));
    }
}
