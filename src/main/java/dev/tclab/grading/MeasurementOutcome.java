package dev.tclab.grading;

import java.util.Map;

/** What one measurement produced: its value tree (possibly partial), its raw output, and why it failed, if it did. */
record MeasurementOutcome(Map<String, Object> values, String raw, String error) {
}
