package dev.tclab.grading.spec;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A number an author wrote in a check, with an optional unit: {@code 10mbit}, {@code 32kb}, {@code 50ms}, {@code 0.1}.
 * A number without a unit is compared with the measured field in the field's own unit.
 */
public record Quantity(double value, Unit unit, String text) {

    private static final Pattern FORM =
            Pattern.compile("\\s*(-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?)\\s*([a-zA-Zµ/%]*)\\s*");
    private static final Map<String, Unit> UNITS = Map.ofEntries(
            Map.entry("bit", Unit.BIT_PER_S),
            Map.entry("bit/s", Unit.BIT_PER_S),
            Map.entry("kbit", Unit.KBIT_PER_S),
            Map.entry("kbit/s", Unit.KBIT_PER_S),
            Map.entry("mbit", Unit.MBIT_PER_S),
            Map.entry("mbit/s", Unit.MBIT_PER_S),
            Map.entry("gbit", Unit.GBIT_PER_S),
            Map.entry("gbit/s", Unit.GBIT_PER_S),
            Map.entry("b", Unit.BYTES),
            Map.entry("kb", Unit.KB),
            Map.entry("mb", Unit.MB),
            Map.entry("gb", Unit.GB),
            Map.entry("us", Unit.US),
            Map.entry("µs", Unit.US),
            Map.entry("ms", Unit.MS),
            Map.entry("s", Unit.S),
            Map.entry("%", Unit.PERCENT),
            Map.entry("", Unit.NONE));
    /** Written by people who mean megabits, but tc reads them as bytes per second: refused to avoid a silent 8x. */
    private static final Map<String, String> AMBIGUOUS =
            Map.of("bps", "bit", "kbps", "kbit", "mbps", "mbit", "gbps", "gbit");

    /**
     * Reads an author's quantity.
     *
     * @return the problem in words, on the left; or the quantity
     */
    public static Parsed parse(String text) {
        Matcher m = FORM.matcher(text == null ? "" : text);
        if (!m.matches()) {
            return Parsed.problem(
                    "'" + text + "' is not a number with an optional unit (e.g. 10mbit, 32kb, 50ms, 0.1)");
        }
        String suffix = m.group(2).toLowerCase(Locale.ROOT);
        if (AMBIGUOUS.containsKey(suffix)) {
            return Parsed.problem("'" + text + "' is ambiguous: tc reads '" + suffix + "' as bytes per second; write '"
                    + m.group(1) + AMBIGUOUS.get(suffix) + "' for bits per second");
        }
        Unit unit = UNITS.get(suffix);
        if (unit == null) {
            return Parsed.problem(
                    "'" + text + "' has an unknown unit '" + m.group(2)
                            + "'; use bit, kbit, mbit, gbit (rates, 1k = 1000), b, kb, mb, gb (sizes, 1k = 1024), us, ms, s, or %");
        }
        return new Parsed(new Quantity(Double.parseDouble(m.group(1)), unit, text.strip()), null);
    }

    /** A quantity or the reason it could not be read. */
    public record Parsed(Quantity quantity, String problem) {

        static Parsed problem(String problem) {
            return new Parsed(null, problem);
        }

        public Optional<Quantity> value() {
            return Optional.ofNullable(quantity);
        }
    }

    /** The unit a word names, as authors write it ({@code mbit}) or as results show it ({@code Mbit/s}). */
    public static Optional<Unit> unitNamed(String word) {
        String lower = word.toLowerCase(Locale.ROOT);
        if (lower.isEmpty()) {
            return Optional.empty();
        }
        return Optional.ofNullable(UNITS.get(lower))
                .or(() -> Arrays.stream(Unit.values())
                        .filter(u -> u.symbol().equalsIgnoreCase(word))
                        .findFirst());
    }

    public boolean hasUnit() {
        return unit != Unit.NONE && unit != Unit.PERCENT;
    }

    /**
     * This quantity in the unit of a measured field: converted when it carries a unit of the same dimension, taken
     * as is when it has none.
     *
     * @throws IllegalArgumentException when the dimensions differ (the spec parser rejects that for known fields)
     */
    public double in(Unit fieldUnit) {
        if (!hasUnit()) {
            return value;
        }
        if (unit.dimension() != fieldUnit.dimension()) {
            throw new IllegalArgumentException(
                    "'" + text + "' is " + unit.dimension().words() + " but the value is "
                            + fieldUnit.dimension().words());
        }
        return fieldUnit.fromBase(unit.toBase(value));
    }

    /**
     * Numbers for people: whole numbers as they are, others to three significant digits but never fewer than the
     * digits before the point (9.64, 0.0382, 94.3, 35888).
     */
    public static String format(double value) {
        return format(value, 3);
    }

    /** Like {@link #format(double)} with {@code digits} significant digits. */
    public static String format(double value, int digits) {
        if (!Double.isFinite(value)) {
            return String.valueOf(value);
        }
        BigDecimal number = BigDecimal.valueOf(value);
        int integerDigits = number.precision() - number.scale();
        BigDecimal rounded = number.round(new MathContext(Math.max(digits, integerDigits), RoundingMode.HALF_UP));
        return rounded.signum() == 0 ? "0" : rounded.stripTrailingZeros().toPlainString();
    }

    @Override
    public String toString() {
        return text;
    }
}
