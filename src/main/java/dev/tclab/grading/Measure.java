package dev.tclab.grading;

/** A measured number in the unit its field is reported in (e.g. 9.61 Mbit/s for {@code up.mbps}). */
public record Measure(double value, Unit unit) {

    public double base() {
        return unit.toBase(value);
    }

    /** The number alone, as a learner reads it: {@code 9.61}, {@code 94.3}, {@code 12}. */
    public String number() {
        return Quantity.format(value);
    }

    @Override
    public String toString() {
        return unit.symbol().isEmpty() ? number() : unit == Unit.PERCENT ? number() + " %" : number() + " " + unit.symbol();
    }
}
