package dev.tclab.grading;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Evaluates assertions against one sample's values. */
public final class Evaluator {

    private Evaluator() {
    }

    public static List<AssertionResult> evaluate(List<Assertion> assertions, Values values) {
        return assertions.stream().map(a -> evaluate(a, values)).toList();
    }

    public static AssertionResult evaluate(Assertion assertion, Values values) {
        if (assertion instanceof Assertion.AllOf all) {
            return group("all_of", all.children(), all.message(), values, true);
        }
        if (assertion instanceof Assertion.AnyOf any) {
            return group("any_of", any.children(), any.message(), values, false);
        }
        return check((Assertion.Check) assertion, values);
    }

    private static AssertionResult group(String name, List<Assertion> members, String message, Values values,
                                         boolean all) {
        List<AssertionResult> children = evaluate(members, values);
        boolean passed = all ? children.stream().allMatch(AssertionResult::passed)
                : children.stream().anyMatch(AssertionResult::passed);
        String expected = (all ? "all of: " : "at least one of: ")
                + String.join("; ", children.stream().map(c -> c.path() + " " + c.expected()).toList());
        String measured = String.join("; ", children.stream().map(c -> c.path() + " = " + c.measured()).toList());
        String text = message != null ? Template.fill(message, measured, null, expected, name, null)
                : (passed ? "holds: " : "does not hold: ") + expected;
        return new AssertionResult(name, measured, null, null, expected, passed, text, children);
    }

    private static AssertionResult check(Assertion.Check check, Values values) {
        String expected = Expectations.describe(check);
        Optional<Object> found = values.get(check.path());
        if (found.isEmpty()) {
            String why = values.error(check.path().root())
                    .map(e -> "not measured: " + e)
                    .orElse("no value at " + check.path());
            return fail(check, why, expected, why);
        }
        Object value = found.get();
        if (check.ratioTo() != null) {
            return ratio(check, value, values, expected);
        }
        return compare(check, value, expected, null);
    }

    private static AssertionResult ratio(Assertion.Check check, Object value, Values values, String expected) {
        Optional<Object> base = values.get(check.ratioTo());
        if (base.isEmpty() || !(base.get() instanceof Measure baseline)) {
            String why = check.ratioTo().root().equals("baseline")
                    ? "no " + check.ratioTo() + " recorded in this lab yet: run the earlier step's check first"
                    : "no number at " + check.ratioTo();
            return fail(check, why, expected, why);
        }
        if (!(value instanceof Measure measure) || measure.unit().dimension() != baseline.unit().dimension()) {
            String why = check.path() + " (" + value + ") cannot be divided by " + check.ratioTo() + " (" + baseline + ")";
            return fail(check, why, expected, why);
        }
        if (baseline.base() == 0) {
            String why = check.ratioTo() + " is 0, so no ratio can be formed";
            return fail(check, why, expected, why);
        }
        Measure ratio = new Measure(measure.base() / baseline.base(), Unit.NONE);
        return compare(check, ratio, expected, baseline);
    }

    private static AssertionResult compare(Assertion.Check check, Object value, String expected, Measure baseline) {
        boolean passed;
        try {
            passed = holds(check.comparison(), value);
        } catch (IllegalArgumentException e) {
            String why = "the check cannot compare " + check.path() + ": " + e.getMessage();
            return fail(check, display(value), expected, why);
        }
        Measure measure = value instanceof Measure m ? m : null;
        String shown = display(value);
        if (baseline != null) {
            shown = shown + " (of " + baseline + ")";
        }
        String number = measure != null ? measure.number() : display(value);
        String message = check.message() != null
                ? Template.fill(check.message(), number, measure, expected, check.path().text(), baseline)
                : check.path() + " is " + shown + "; expected " + expected;
        return new AssertionResult(check.path().text(), shown, measure == null ? null : measure.value(),
                measure == null ? null : measure.unit().symbol(), expected, passed, message, List.of());
    }

    private static boolean holds(Comparison comparison, Object value) {
        if (comparison instanceof Comparison.Equals eq) {
            return equalsValue(eq, value);
        }
        if (comparison instanceof Comparison.Matches m) {
            return m.pattern().matcher(display(value)).find();
        }
        Measure measure = number(value);
        double v = measure.value();
        Unit unit = measure.unit();
        if (comparison instanceof Comparison.Near near) {
            double target = near.target().in(unit);
            return Math.abs(v - target) <= near.within().allowance(target, unit) * (1 + 1e-12);
        }
        if (comparison instanceof Comparison.Between between) {
            return v >= between.low().in(unit) && v <= between.high().in(unit);
        }
        Comparison.Bounds bounds = (Comparison.Bounds) comparison;
        return (bounds.above() == null || v > bounds.above().in(unit))
                && (bounds.below() == null || v < bounds.below().in(unit));
    }

    private static boolean equalsValue(Comparison.Equals eq, Object value) {
        if (value instanceof Measure measure && eq.quantity() != null) {
            double expected = eq.quantity().in(measure.unit());
            return Math.abs(measure.value() - expected) <= 1e-9 * Math.max(1, Math.abs(expected));
        }
        return display(value).equals(eq.text());
    }

    private static Measure number(Object value) {
        if (value instanceof Measure measure) {
            return measure;
        }
        throw new IllegalArgumentException("it is '" + display(value) + "', not a number");
    }

    static String display(Object value) {
        if (value instanceof Measure || value instanceof String || value instanceof Boolean) {
            return String.valueOf(value);
        }
        if (value instanceof List<?> list) {
            List<String> items = new ArrayList<>();
            list.forEach(i -> items.add(display(i)));
            return "[" + String.join(", ", items) + "]";
        }
        return String.valueOf(value).toLowerCase(Locale.ROOT).equals("null") ? "nothing" : String.valueOf(value);
    }

    private static AssertionResult fail(Assertion.Check check, String measured, String expected, String why) {
        String message = check.message() != null
                ? Template.fill(check.message(), measured, null, expected, check.path().text(), null) + " (" + why + ")"
                : check.path() + ": " + why + "; expected " + expected;
        return new AssertionResult(check.path().text(), measured, null, null, expected, false, message, List.of());
    }
}
