package dev.tclab.grading.spec;

import java.util.List;

/** One entry of a check's {@code expect} list. */
public sealed interface Assertion {

    /**
     * A value compared with an expectation. With {@code ratioTo}, the compared number is value / that other value
     * (e.g. ping under load now / ping under load recorded before the fix).
     *
     * @param message the author's message template (placeholders: see {@code evaluate.Template}); null for the default
     */
    record Check(ValuePath path, ValuePath ratioTo, Comparison comparison, String message) implements Assertion {}

    /** Every child must hold. */
    record AllOf(List<Assertion> children, String message) implements Assertion {}

    /** At least one child must hold. */
    record AnyOf(List<Assertion> children, String message) implements Assertion {}
}
