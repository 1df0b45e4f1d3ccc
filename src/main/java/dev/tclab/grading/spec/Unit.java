package dev.tclab.grading.spec;

/**
 * The unit a measured field is reported in, with its factor to the dimension's base unit (bit/s, bytes, seconds).
 * Rates use decimal prefixes as tc does for rates (1 kbit = 1000 bit/s); sizes use tc's binary prefixes
 * (1 kb = 1024 bytes); tc's JSON gives rates in bytes/s.
 */
public enum Unit {
    BIT_PER_S(Dimension.RATE, 1, "bit/s"),
    KBIT_PER_S(Dimension.RATE, 1e3, "kbit/s"),
    MBIT_PER_S(Dimension.RATE, 1e6, "Mbit/s"),
    GBIT_PER_S(Dimension.RATE, 1e9, "Gbit/s"),
    BYTE_PER_S(Dimension.RATE, 8, "bytes/s"),
    BYTES(Dimension.SIZE, 1, "bytes"),
    KB(Dimension.SIZE, 1024, "kb"),
    MB(Dimension.SIZE, 1024 * 1024, "mb"),
    GB(Dimension.SIZE, 1024.0 * 1024 * 1024, "gb"),
    US(Dimension.TIME, 1e-6, "µs"),
    MS(Dimension.TIME, 1e-3, "ms"),
    S(Dimension.TIME, 1, "s"),
    PERCENT(Dimension.NUMBER, 1, "%"),
    NONE(Dimension.NUMBER, 1, "");

    private final Dimension dimension;
    private final double factor;
    private final String symbol;

    Unit(Dimension dimension, double factor, String symbol) {
        this.dimension = dimension;
        this.factor = factor;
        this.symbol = symbol;
    }

    public Dimension dimension() {
        return dimension;
    }

    public String symbol() {
        return symbol;
    }

    /** The value in the dimension's base unit. */
    public double toBase(double value) {
        return value * factor;
    }

    /** A base-unit value in this unit. */
    public double fromBase(double base) {
        return base / factor;
    }
}
