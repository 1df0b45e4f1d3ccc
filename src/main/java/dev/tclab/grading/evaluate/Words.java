package dev.tclab.grading.evaluate;

import dev.tclab.grading.spec.Comparison;
import dev.tclab.grading.spec.Measure;
import dev.tclab.grading.spec.Quantity;
import dev.tclab.grading.spec.Tolerance;
import dev.tclab.grading.spec.Unit;

/**
 * Numbers and expectations as a learner reads them: every number with its unit, or with what it counts, in a unit
 * that suits its size (26.9 Gbit/s rather than 26900 Mbit/s, 7.15 MiB rather than 7.15 mb).
 */
final class Words {

    /** Digits shown for a number that failed {@code equals}, so it never reads the same as the expected one. */
    static final int EXACT_DIGITS = 12;

    private Words() {}

    /** {@code m} in a unit that suits its size; a plain number followed by what it counts, when known. */
    static String measure(Measure m, String counts, boolean exact) {
        Measure shown = readable(m);
        String number = exact ? Quantity.format(shown.value(), EXACT_DIGITS) : shown.number();
        if (shown.unit() == Unit.NONE) {
            return counts.isEmpty() ? number : number + " " + counts;
        }
        return shown.unit() == Unit.PERCENT ? number + " %" : number + " " + symbol(shown.unit());
    }

    /** The symbol a learner reads: tc's binary sizes as KiB, MiB, GiB. */
    static String symbol(Unit unit) {
        return switch (unit) {
            case KB -> "KiB";
            case MB -> "MiB";
            case GB -> "GiB";
            default -> unit.symbol();
        };
    }

    /** The unit word of {@code m} as {@link #measure} shows it, or what a plain number counts. */
    static String unit(Measure m, String counts) {
        Unit unit = readable(m).unit();
        return unit == Unit.NONE ? counts : symbol(unit);
    }

    /** The expectation in words, its numbers in {@code fieldUnit} when they are plain numbers. */
    static String expected(Comparison comparison, Unit fieldUnit, String counts) {
        if (comparison instanceof Comparison.Equals eq) {
            return "equal to " + (eq.quantity() != null ? quantity(eq.quantity(), fieldUnit, counts) : eq.text());
        }
        if (comparison instanceof Comparison.Matches m) {
            return "matching the pattern /" + m.pattern().pattern() + "/";
        }
        if (comparison instanceof Comparison.Near near) {
            Tolerance within = near.within();
            return "about " + quantity(near.target(), fieldUnit, counts) + " (± "
                    + (within.percent() != null
                            ? Quantity.format(within.percent()) + " %"
                            : quantity(within.absolute(), fieldUnit, counts))
                    + ")";
        }
        if (comparison instanceof Comparison.Between b) {
            return "between " + quantity(b.low(), fieldUnit, counts) + " and " + quantity(b.high(), fieldUnit, counts);
        }
        Comparison.Bounds b = (Comparison.Bounds) comparison;
        String above = b.above() == null ? null : "above " + quantity(b.above(), fieldUnit, counts);
        String below = b.below() == null ? null : "below " + quantity(b.below(), fieldUnit, counts);
        return above != null && below != null ? above + " and " + below : above != null ? above : below;
    }

    private static String quantity(Quantity q, Unit fieldUnit, String counts) {
        if (q.hasUnit()) {
            return measure(new Measure(q.value(), q.unit()), counts, false);
        }
        if (q.unit() == Unit.PERCENT) {
            return Quantity.format(q.value()) + " %";
        }
        return measure(new Measure(q.value(), fieldUnit), counts, false);
    }

    private static Measure readable(Measure m) {
        double base = m.base();
        double size = Math.abs(base);
        return switch (m.unit().dimension()) {
            case RATE ->
                m.in(
                        size >= 1e9
                                ? Unit.GBIT_PER_S
                                : size >= 1e6 ? Unit.MBIT_PER_S : size >= 1e3 ? Unit.KBIT_PER_S : Unit.BIT_PER_S);
            case SIZE ->
                m.in(size >= 1L << 30 ? Unit.GB : size >= 1 << 20 ? Unit.MB : size >= 1 << 10 ? Unit.KB : Unit.BYTES);
            default -> m;
        };
    }
}
