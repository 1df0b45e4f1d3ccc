package dev.tclab.grading.evaluate;

import dev.tclab.grading.spec.Assertion;
import dev.tclab.grading.spec.Comparison;

/** Expected values in words, for learners: "about 10mbit (± 15 %)", "below 50ms". */
final class Expectations {

    private Expectations() {}

    static String describe(Assertion.Check check) {
        String words = words(check.comparison());
        return check.ratioTo() == null ? words : "a ratio to " + check.ratioTo() + " " + words;
    }

    private static String words(Comparison comparison) {
        if (comparison instanceof Comparison.Equals eq) {
            return "equal to " + eq.text();
        }
        if (comparison instanceof Comparison.Matches m) {
            return "matching /" + m.pattern().pattern() + "/";
        }
        if (comparison instanceof Comparison.Near near) {
            return "about " + near.target() + " (± " + near.within() + ")";
        }
        if (comparison instanceof Comparison.Between b) {
            return "between " + b.low() + " and " + b.high();
        }
        Comparison.Bounds b = (Comparison.Bounds) comparison;
        if (b.above() != null && b.below() != null) {
            return "above " + b.above() + " and below " + b.below();
        }
        return b.above() != null ? "above " + b.above() : "below " + b.below();
    }
}
