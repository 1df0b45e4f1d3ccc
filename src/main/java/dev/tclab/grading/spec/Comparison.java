package dev.tclab.grading.spec;

import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** What a value is compared with. Quantities without a unit are read in the measured field's unit. */
public sealed interface Comparison {

    /** The unit the author wrote the expectation in (the first one given), to show the measured value in it. */
    Optional<Unit> unit();

    /** {@code equals: tbf} or {@code equals: 10mbit}: text equality, or numeric equality when both sides are numbers. */
    record Equals(String text, Quantity quantity) implements Comparison {
        @Override
        public Optional<Unit> unit() {
            return unitOf(quantity);
        }
    }

    /** {@code near: 10mbit, within: 15%}. */
    record Near(Quantity target, Tolerance within) implements Comparison {
        @Override
        public Optional<Unit> unit() {
            return unitOf(target, within.absolute());
        }
    }

    /** {@code between: [a, b]}, both ends included. */
    record Between(Quantity low, Quantity high) implements Comparison {
        @Override
        public Optional<Unit> unit() {
            return unitOf(low, high);
        }
    }

    /** {@code above: x} and/or {@code below: y}, exclusive. Either may be null. */
    record Bounds(Quantity above, Quantity below) implements Comparison {
        @Override
        public Optional<Unit> unit() {
            return unitOf(above, below);
        }
    }

    /** {@code matches: regex}, found anywhere in the value's text. */
    record Matches(Pattern pattern) implements Comparison {
        @Override
        public Optional<Unit> unit() {
            return Optional.empty();
        }
    }

    private static Optional<Unit> unitOf(Quantity... quantities) {
        return Stream.of(quantities)
                .filter(q -> q != null && q.hasUnit())
                .map(Quantity::unit)
                .findFirst();
    }
}
