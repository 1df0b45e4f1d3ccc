package dev.tclab.grading;

import java.util.List;

/**
 * The outcome of one assertion, for the learner: what was measured, what was expected (in words), and a message.
 *
 * @param path     the value path ({@code up.mbps}), or {@code all_of} / {@code any_of} for groups
 * @param measured the measured value with its unit ({@code 9.61 Mbit/s}), or what was missing
 * @param number   the measured number in the field's unit, or null when the value is not a number
 * @param children the results of a group's members; empty otherwise
 */
public record AssertionResult(String path, String measured, Double number, String unit, String expected,
                              boolean passed, String message, List<AssertionResult> children) {
}
