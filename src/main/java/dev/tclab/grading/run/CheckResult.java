package dev.tclab.grading.run;

import dev.tclab.grading.evaluate.AssertionResult;
import dev.tclab.grading.evaluate.FlowRoute;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The outcome of a check.
 *
 * @param status     PASSED, FAILED (the lab does not meet the expectation) or ERROR (the platform could not measure)
 * @param attempts   samples taken
 * @param assertions every assertion of the last sample, with measured and expected values
 * @param measured   the last sample's values by measurement name (the trees the paths address)
 * @param raw        the last sample's raw outputs by measurement name, to show when something could not be read
 * @param errors     why a measurement of the last sample has no values, by measurement name
 * @param message    one sentence for the learner
 * @param flows      where each flow of the last sample's loads went on its sending node (see {@link FlowRoute})
 */
public record CheckResult(
        String checkId,
        String title,
        Status status,
        int attempts,
        List<AssertionResult> assertions,
        Map<String, Object> measured,
        Map<String, String> raw,
        Map<String, String> errors,
        String message,
        Duration duration,
        String hint,
        List<FlowRoute> flows) {

    public enum Status {
        PASSED,
        FAILED,
        ERROR
    }

    public boolean passed() {
        return status == Status.PASSED;
    }
}
