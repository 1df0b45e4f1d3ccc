package dev.tclab.grading.spec;

/** A measured number in the unit its field is reported in (e.g. 9.61 Mbit/s for {@code up.mbps}). */
public record Measure(double value, Unit unit) {

    public double base() {
        return unit.toBase(value);
    }

    /**
     * The same quantity in another unit of its dimension (1250000 bytes/s is 10 Mbit/s).
     *
     * @throws IllegalArgumentException when {@code other} measures something else
     */
    public Measure in(Unit other) {
        if (other.dimension() != unit.dimension()) {
            throw new IllegalArgumentException(this + " is " + unit.dimension().words() + ", not "
                    + other.dimension().words());
        }
        return other == unit ? this : new Measure(other.fromBase(base()), other);
    }

    /** The number alone, as a learner reads it: {@code 9.61}, {@code 94.3}, {@code 12}. */
    public String number() {
        return Quantity.format(value);
    }

    @Override
    public String toString() {
        return withUnit(number());
    }

    /** {@code number} followed by this measure's unit, as {@link #toString()} writes it. */
    public String withUnit(String number) {
        return unit.symbol().isEmpty() ? number : unit == Unit.PERCENT ? number + " %" : number + " " + unit.symbol();
    }
}
