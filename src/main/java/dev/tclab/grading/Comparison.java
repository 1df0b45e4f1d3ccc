package dev.tclab.grading;

import java.util.regex.Pattern;

/** What a value is compared with. Quantities without a unit are read in the measured field's unit. */
public sealed interface Comparison {

    /** {@code equals: tbf} or {@code equals: 10mbit}: text equality, or numeric equality when both sides are numbers. */
    record Equals(String text, Quantity quantity) implements Comparison {
    }

    /** {@code near: 10mbit, within: 15%}. */
    record Near(Quantity target, Tolerance within) implements Comparison {
    }

    /** {@code between: [a, b]}, both ends included. */
    record Between(Quantity low, Quantity high) implements Comparison {
    }

    /** {@code above: x} and/or {@code below: y}, exclusive. Either may be null. */
    record Bounds(Quantity above, Quantity below) implements Comparison {
    }

    /** {@code matches: regex}, found anywhere in the value's text. */
    record Matches(Pattern pattern) implements Comparison {
    }
}
