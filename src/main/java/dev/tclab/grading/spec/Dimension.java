package dev.tclab.grading.spec;

/** What a quantity measures; values of different dimensions cannot be compared. */
public enum Dimension {
    RATE("a rate (bit, kbit, mbit, gbit)"),
    SIZE("a size (b, kb, mb, gb)"),
    TIME("a time (us, ms, s)"),
    NUMBER("a plain number");

    private final String words;

    Dimension(String words) {
        this.words = words;
    }

    public String words() {
        return words;
    }
}
