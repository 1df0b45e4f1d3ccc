package dev.tclab.grading.evaluate;

import java.util.List;

/**
 * The outcome of one assertion, for the learner: what was measured, what was expected (in words), and a message.
 *
 * @param path     the value path ({@code up.mbps}), or {@code all_of} / {@code any_of} for groups
 * @param measured the measured value as the learner reads it ({@code 9.61 Mbit/s}; with {@code ratio_to} also the
 *                 ratio and the other value), or what was missing
 * @param number   the measured number in {@code unit}, or null when the value is not a number
 * @param unit     the unit of {@code number}: the unit the expectation is written in when it has one (a tc rate in
 *                 bytes/s compared with {@code 10mbit} is shown in Mbit/s), else the field's own unit
 * @param ratio    with {@code ratio_to}, the compared number: the value divided by the other value; null otherwise
 * @param children the results of a group's members; empty otherwise
 * @param reason   why it holds or not, in typed fields a page renders from (the sentences above stay for people);
 *                 null in results kept before it existed
 */
public record AssertionResult(
        String path,
        String measured,
        Double number,
        String unit,
        Double ratio,
        String expected,
        boolean passed,
        String message,
        List<AssertionResult> children,
        Reason reason) {

    /** This result with {@code newReason} (where its flow went, say), its sentences unchanged. */
    public AssertionResult withReason(Reason newReason) {
        return new AssertionResult(path, measured, number, unit, ratio, expected, passed, message, children, newReason);
    }
}
