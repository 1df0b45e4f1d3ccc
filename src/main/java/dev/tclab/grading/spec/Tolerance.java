package dev.tclab.grading.spec;

/** How far from a target a value may be: a percentage of the target, or an absolute quantity. */
public record Tolerance(Double percent, Quantity absolute) {

    public static Tolerance percent(double percent) {
        return new Tolerance(percent, null);
    }

    public static Tolerance absolute(Quantity quantity) {
        return new Tolerance(null, quantity);
    }

    /** The allowed distance from {@code target}, both in {@code unit}. */
    public double allowance(double target, Unit unit) {
        return percent != null ? Math.abs(target) * percent / 100 : absolute.in(unit);
    }

    @Override
    public String toString() {
        return percent != null ? Quantity.format(percent) + " %" : absolute.text();
    }
}
