package dev.tclab.grading.spec;

import java.util.Map;

/** What one measurement produced: its value tree (possibly partial), its raw output, and why it failed, if it did. */
public record MeasurementOutcome(Map<String, Object> values, String raw, String error) {}
