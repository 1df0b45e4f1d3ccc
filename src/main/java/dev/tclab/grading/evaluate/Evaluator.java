package dev.tclab.grading.evaluate;

import dev.tclab.grading.spec.Assertion;
import dev.tclab.grading.spec.Comparison;
import dev.tclab.grading.spec.Counters;
import dev.tclab.grading.spec.Measure;
import dev.tclab.grading.spec.Quantity;
import dev.tclab.grading.spec.Unit;
import dev.tclab.grading.spec.ValuePath;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Evaluates assertions against one sample's values. */
public final class Evaluator {

    private static final int EXACT_DIGITS = Words.EXACT_DIGITS;

    private Evaluator() {}

    public static List<AssertionResult> evaluate(List<Assertion> assertions, Values values) {
        return evaluate(assertions, values, Subjects.NONE);
    }

    /** Evaluates {@code assertions}, their reasons naming what was measured by {@code subjects}. */
    public static List<AssertionResult> evaluate(List<Assertion> assertions, Values values, Subjects subjects) {
        return assertions.stream().map(a -> evaluate(a, values, subjects)).toList();
    }

    public static AssertionResult evaluate(Assertion assertion, Values values) {
        return evaluate(assertion, values, Subjects.NONE);
    }

    static AssertionResult evaluate(Assertion assertion, Values values, Subjects subjects) {
        if (assertion instanceof Assertion.AllOf all) {
            return group("all_of", all.children(), all.message(), values, true, subjects);
        }
        if (assertion instanceof Assertion.AnyOf any) {
            return group("any_of", any.children(), any.message(), values, false, subjects);
        }
        return check((Assertion.Check) assertion, values, subjects);
    }

    private static AssertionResult group(
            String name, List<Assertion> members, String message, Values values, boolean all, Subjects subjects) {
        List<AssertionResult> children = evaluate(members, values, subjects);
        boolean passed = all
                ? children.stream().allMatch(AssertionResult::passed)
                : children.stream().anyMatch(AssertionResult::passed);
        String expected = (all ? "all of: " : "at least one of: ")
                + String.join(
                        "; ",
                        children.stream()
                                .map(c -> c.path() + " " + c.expected())
                                .toList());
        String measured = String.join(
                "; ",
                children.stream().map(c -> c.path() + " = " + c.measured()).toList());
        String text = message != null
                ? Template.fill(message, new Template.Fields(measured, "", expected, name, "", ""))
                : passed ? "holds: " + expected : telling(children, all).message();
        Reason reason = new Reason(
                passed ? Reason.Kind.HELD : Reason.Kind.NOT_MET,
                null,
                null,
                name,
                name,
                expected,
                null,
                "",
                null,
                null,
                null,
                message != null,
                null,
                null,
                null);
        return new AssertionResult(name, measured, null, null, null, expected, passed, text, children, reason);
    }

    /**
     * The failed member that tells what is wrong with a failed group that has no message of its own. In an {@code
     * any_of}, a member whose value was measured ("CAKE shapes to 5.5 Mbit/s") rather than one whose value is not
     * there at all (no tbf, so no tbf rate): that member is the alternative the learner took. Before, the group said
     * "does not hold: at least one of: q.root.options.bandwidth below 5mbit; ...", the platform's words. A failed
     * group has a failed member: the schema refuses an empty group (CheckSpecParserTest).
     */
    static AssertionResult telling(List<AssertionResult> members, boolean all) {
        List<AssertionResult> failed = members.stream().filter(m -> !m.passed()).toList();
        return failed.stream()
                .filter(m -> !all && m.reason() != null && m.reason().kind() == Reason.Kind.NOT_MET)
                .findFirst()
                .orElse(failed.get(0));
    }

    /** What the evaluation of one check knows for its reason: the subjects, and the unit its numbers are in. */
    private record Context(Assertion.Check check, Subjects subjects) {

        Reason reason(
                Reason.Kind kind,
                Unit fieldUnit,
                String measured,
                String unit,
                String ratioTo,
                String baseline,
                String error) {
            return reason(kind, fieldUnit, measured, unit, ratioTo, baseline, error, null);
        }

        /** As above, with the counter a delta rose from and to ({@code span}; null for other paths). */
        Reason reason(
                Reason.Kind kind,
                Unit fieldUnit,
                String measured,
                String unit,
                String ratioTo,
                String baseline,
                String error,
                Span span) {
            String counts = check.ratioTo() != null ? "times" : Subjects.counts(check.path());
            String expected = Words.expected(check.comparison(), fieldUnit, counts)
                    + (check.ratioTo() != null ? " " + subjects.of(check.ratioTo()) : "");
            return new Reason(
                    kind,
                    check.path().root(),
                    subjects.of(check.path()),
                    check.path().text(),
                    comparison(check.comparison()),
                    expected,
                    measured,
                    unit,
                    ratioTo,
                    baseline,
                    error,
                    inAuthorsWords(check, kind),
                    span == null ? null : span.before(),
                    span == null ? null : span.after(),
                    null);
        }

        private static String comparison(Comparison c) {
            return c instanceof Comparison.Equals
                    ? "equals"
                    : c instanceof Comparison.Near
                            ? "near"
                            : c instanceof Comparison.Between
                                    ? "between"
                                    : c instanceof Comparison.Matches ? "matches" : "bounds";
        }
    }

    private static AssertionResult check(Assertion.Check check, Values values, Subjects subjects) {
        String expected = Expectations.describe(check);
        Context context = new Context(check, subjects);
        Optional<Object> found = values.get(check.path());
        if (found.isEmpty()) {
            Optional<String> error = values.error(check.path().root());
            String why = error.map(e -> "not measured: " + e).orElse("no value at " + check.path());
            Reason.Kind kind = error.isEmpty()
                    ? Reason.Kind.NO_VALUE
                    : error.get().equals(Values.SKIPPED) ? Reason.Kind.SKIPPED : Reason.Kind.MEASUREMENT_FAILED;
            return unanswered(
                    check,
                    why,
                    expected,
                    why,
                    context.reason(kind, Unit.NONE, null, "", null, null, error.orElse(null)));
        }
        Object value = found.get();
        return check.ratioTo() == null
                ? compare(check, value, values, expected, context)
                : ratio(check, value, values, expected, context);
    }

    /**
     * What a {@code delta} rose from and to, read before and after the load, in the learner's units ("10 borrows",
     * "13 borrows").
     */
    record Span(String before, String after) {

        /** The span of a {@code ...delta.<counter>} path, or null for any other path (or when a side is missing). */
        static Span of(ValuePath path, Values values, String counts) {
            String text = path.text();
            int dot = text.lastIndexOf("." + Counters.DELTA + ".");
            if (dot < 0) {
                return null;
            }
            String head = text.substring(0, dot);
            String tail = text.substring(dot + Counters.DELTA.length() + 1);
            Optional<Object> before =
                    ValuePath.parse(head + "." + Counters.BEFORE + tail).flatMap(values::get);
            Optional<Object> after = ValuePath.parse(head + tail).flatMap(values::get);
            if (before.isEmpty()
                    || after.isEmpty()
                    || !(before.get() instanceof Measure from)
                    || !(after.get() instanceof Measure to)) {
                return null;
            }
            return new Span(Words.measure(from, counts, false), Words.measure(to, counts, false));
        }

        String inWords() {
            return before + " before the load, " + after + " after it";
        }
    }

    private static AssertionResult compare(
            Assertion.Check check, Object value, Values values, String expected, Context context) {
        boolean passed;
        try {
            passed = holds(check.comparison(), value);
        } catch (IllegalArgumentException e) {
            return incomparable(check, value, expected, e, context);
        }
        String path = check.path().text();
        Reason.Kind kind = passed ? Reason.Kind.HELD : Reason.Kind.NOT_MET;
        if (!(value instanceof Measure measure)) {
            String text = display(value);
            Template.Fields fields = new Template.Fields(text, "", expected, path, "", "");
            return new AssertionResult(
                    path,
                    text,
                    null,
                    null,
                    null,
                    expected,
                    passed,
                    message(check, text, fields),
                    List.of(),
                    context.reason(kind, Unit.NONE, text, "", null, null, null));
        }
        Measure shown = check.comparison()
                .unit()
                .filter(u -> u.dimension() == measure.unit().dimension())
                .map(measure::in)
                .orElse(measure);
        String number = passed || !(check.comparison() instanceof Comparison.Equals)
                ? shown.number()
                : Quantity.format(shown.value(), EXACT_DIGITS);
        String counts = Subjects.counts(check.path());
        Span span = Span.of(check.path(), values, counts);
        String measured = shown.withUnit(number) + (span == null ? "" : " (" + span.inWords() + ")");
        Template.Fields fields = new Template.Fields(number, Words.symbol(shown.unit()), expected, path, "", "");
        boolean exact = !passed && check.comparison() instanceof Comparison.Equals;
        Reason reason = context.reason(
                kind,
                measure.unit(),
                Words.measure(measure, counts, exact),
                Words.unit(measure, counts),
                null,
                null,
                null,
                span);
        return new AssertionResult(
                path,
                measured,
                shown.value(),
                shown.unit().symbol(),
                null,
                expected,
                passed,
                message(check, measured, fields),
                List.of(),
                reason);
    }

    private static AssertionResult ratio(
            Assertion.Check check, Object value, Values values, String expected, Context context) {
        Optional<Object> other = values.get(check.ratioTo());
        String ratioTo = context.subjects().of(check.ratioTo());
        if (other.isEmpty() || !(other.get() instanceof Measure baseline)) {
            String why = check.ratioTo().root().equals("baseline")
                    ? "no " + check.ratioTo() + " recorded in this lab"
                    : "no number at " + check.ratioTo();
            return unanswered(
                    check,
                    why,
                    expected,
                    why,
                    context.reason(Reason.Kind.NO_RATIO, Unit.NONE, null, "", ratioTo, null, why));
        }
        String counts = Subjects.counts(check.path());
        if (!(value instanceof Measure measure)
                || measure.unit().dimension() != baseline.unit().dimension()) {
            String why = check.path() + " (" + display(value) + ") cannot be divided by " + check.ratioTo() + " ("
                    + baseline + ")";
            return unanswered(
                    check,
                    why,
                    expected,
                    why,
                    context.reason(
                            Reason.Kind.NOT_COMPARABLE,
                            Unit.NONE,
                            display(value),
                            "",
                            ratioTo,
                            Words.measure(baseline, counts, false),
                            why));
        }
        String measuredWords = Words.measure(measure, counts, false);
        String baselineWords = Words.measure(baseline, counts, false);
        if (baseline.base() == 0) {
            String why = check.ratioTo() + " is 0, so no ratio can be formed";
            return unanswered(
                    check,
                    why,
                    expected,
                    why,
                    context.reason(
                            Reason.Kind.NO_RATIO,
                            Unit.NONE,
                            measuredWords,
                            Words.unit(measure, counts),
                            ratioTo,
                            baselineWords,
                            why));
        }
        Measure ratio = new Measure(measure.base() / baseline.base(), Unit.NONE);
        boolean passed;
        try {
            passed = holds(check.comparison(), ratio);
        } catch (IllegalArgumentException e) {
            return incomparable(check, ratio, expected, e, context);
        }
        Measure sameUnit = baseline.in(measure.unit());
        String when = context.subjects().when(check.ratioTo());
        String measured = measure + " = " + ratio.number() + " × " + sameUnit + " (" + check.ratioTo()
                + (when.isEmpty() ? "" : ", " + when) + ")";
        String path = check.path().text();
        Template.Fields fields = new Template.Fields(
                measure.number(), Words.symbol(measure.unit()), expected, path, sameUnit.number(), ratio.number());
        Reason reason = context.reason(
                passed ? Reason.Kind.HELD : Reason.Kind.NOT_MET,
                Unit.NONE,
                measuredWords,
                Words.unit(measure, counts),
                ratioTo,
                baselineWords,
                null);
        return new AssertionResult(
                path,
                measured,
                measure.value(),
                measure.unit().symbol(),
                ratio.value(),
                expected,
                passed,
                message(check, measured, fields),
                List.of(),
                reason);
    }

    private static String message(Assertion.Check check, String measured, Template.Fields fields) {
        return check.message() != null
                ? Template.fill(check.message(), fields)
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

    private static AssertionResult incomparable(
            Assertion.Check check, Object value, String expected, IllegalArgumentException e, Context context) {
        String why = "the check cannot compare " + check.path() + ": " + e.getMessage();
        return unanswered(
                check,
                display(value),
                expected,
                why,
                context.reason(Reason.Kind.NOT_COMPARABLE, Unit.NONE, display(value), "", null, null, e.getMessage()));
    }

    /**
     * Whether the author's message tells this outcome, so the learner's page shows it rather than its own sentence. A
     * value that was measured: yes. A value that is not there (no ingress qdisc, so no {@code q.ingress.kind}): yes
     * when the message names no measured figure ("eth2 has no ingress qdisc: tc qdisc add ..."), where the page
     * showed "Q.ingress.kind: no value at q.ingress.kind; expected equal to ingress". A failed, skipped or not
     * comparable measurement: no, the message's placeholders would have nothing to show.
     */
    static boolean inAuthorsWords(Assertion.Check check, Reason.Kind kind) {
        if (check.message() == null) {
            return false;
        }
        return switch (kind) {
            case HELD, NOT_MET -> true;
            case NO_VALUE -> !Template.namesMeasured(check.message());
            case MEASUREMENT_FAILED, SKIPPED, NOT_COMPARABLE, NO_RATIO -> false;
        };
    }

    /** An assertion that could not be judged: the author's message when it tells this outcome, else the platform's. */
    private static AssertionResult unanswered(
            Assertion.Check check, String measured, String expected, String why, Reason reason) {
        String message = inAuthorsWords(check, reason.kind())
                ? Template.fill(
                        check.message(),
                        new Template.Fields("", "", expected, check.path().text(), "", ""))
                : check.path() + ": " + why + "; expected " + expected;
        return new AssertionResult(
                check.path().text(), measured, null, null, null, expected, false, message, List.of(), reason);
    }
}
