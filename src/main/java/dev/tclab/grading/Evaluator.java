package dev.tclab.grading;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Evaluates assertions against one sample's values. */
public final class Evaluator {

    /** Digits shown for a number that failed {@code equals}, so it never reads the same as the expected one. */
    private static final int EXACT_DIGITS = 12;

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
        String text = message != null
                ? Template.fill(message, new Template.Fields(measured, "", expected, name, "", ""))
                : (passed ? "holds: " : "does not hold: ") + expected;
        return new AssertionResult(name, measured, null, null, null, expected, passed, text, children);
    }

    private static AssertionResult check(Assertion.Check check, Values values) {
        String expected = Expectations.describe(check);
        Optional<Object> found = values.get(check.path());
        if (found.isEmpty()) {
            String why = values.error(check.path().root())
                    .map(e -> "not measured: " + e)
                    .orElse("no value at " + check.path());
            return unanswered(check, why, expected, why);
        }
        Object value = found.get();
        return check.ratioTo() == null ? compare(check, value, expected) : ratio(check, value, values, expected);
    }

    private static AssertionResult compare(Assertion.Check check, Object value, String expected) {
        boolean passed;
        try {
            passed = holds(check.comparison(), value);
        } catch (IllegalArgumentException e) {
            return incomparable(check, value, expected, e);
        }
        String path = check.path().text();
        if (!(value instanceof Measure measure)) {
            String text = display(value);
            Template.Fields fields = new Template.Fields(text, "", expected, path, "", "");
            return new AssertionResult(path, text, null, null, null, expected, passed,
                    message(check, text, fields), List.of());
        }
        Measure shown = check.comparison().unit().filter(u -> u.dimension() == measure.unit().dimension())
                .map(measure::in).orElse(measure);
        String number = passed || !(check.comparison() instanceof Comparison.Equals)
                ? shown.number() : Quantity.format(shown.value(), EXACT_DIGITS);
        String measured = shown.withUnit(number);
        Template.Fields fields = new Template.Fields(number, shown.unit().symbol(), expected, path, "", "");
        return new AssertionResult(path, measured, shown.value(), shown.unit().symbol(), null, expected, passed,
                message(check, measured, fields), List.of());
    }

    private static AssertionResult ratio(Assertion.Check check, Object value, Values values, String expected) {
        Optional<Object> other = values.get(check.ratioTo());
        if (other.isEmpty() || !(other.get() instanceof Measure baseline)) {
            String why = check.ratioTo().root().equals("baseline")
                    ? "no " + check.ratioTo() + " recorded in this lab"
                    : "no number at " + check.ratioTo();
            return unanswered(check, why, expected, why);
        }
        if (!(value instanceof Measure measure) || measure.unit().dimension() != baseline.unit().dimension()) {
            String why = check.path() + " (" + display(value) + ") cannot be divided by " + check.ratioTo()
                    + " (" + baseline + ")";
            return unanswered(check, why, expected, why);
        }
        if (baseline.base() == 0) {
            String why = check.ratioTo() + " is 0, so no ratio can be formed";
            return unanswered(check, why, expected, why);
        }
        Measure ratio = new Measure(measure.base() / baseline.base(), Unit.NONE);
        boolean passed;
        try {
            passed = holds(check.comparison(), ratio);
        } catch (IllegalArgumentException e) {
            return incomparable(check, ratio, expected, e);
        }
        Measure sameUnit = baseline.in(measure.unit());
        String measured = measure + " = " + ratio.number() + " × " + sameUnit + " (" + check.ratioTo() + ")";
        String path = check.path().text();
        Template.Fields fields = new Template.Fields(measure.number(), measure.unit().symbol(), expected, path,
                sameUnit.number(), ratio.number());
        return new AssertionResult(path, measured, measure.value(), measure.unit().symbol(), ratio.value(), expected,
                passed, message(check, measured, fields), List.of());
    }

    private static String message(Assertion.Check check, String measured, Template.Fields fields) {
        return check.message() != null ? Template.fill(check.message(), fields)
                : check.path() + " is " + measured + "; expected " + fields.expected();
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

    private static AssertionResult incomparable(Assertion.Check check, Object value, String expected,
                                                IllegalArgumentException e) {
        return unanswered(check, display(value), expected,
                "the check cannot compare " + check.path() + ": " + e.getMessage());
    }

    /**
     * An assertion that could not be judged. The author's message is not used: its placeholders would be filled
     * with an error instead of a measured value.
     */
    private static AssertionResult unanswered(Assertion.Check check, String measured, String expected, String why) {
        return new AssertionResult(check.path().text(), measured, null, null, null, expected, false,
                check.path() + ": " + why + "; expected " + expected, List.of());
    }
}
