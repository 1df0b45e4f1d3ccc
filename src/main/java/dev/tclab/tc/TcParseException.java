package dev.tclab.tc;

/**
 * tc printed something this parser does not understand. The message says what was expected and what was found,
 * so a caller can report it and fall back to showing the raw output.
 */
public class TcParseException extends Exception {

    public TcParseException(String message) {
        super(message);
    }

    public TcParseException(String message, Throwable cause) {
        super(message, cause);
    }

    /** A short, single-line excerpt of raw output for error messages. */
    static String excerpt(String raw) {
        if (raw == null) {
            return "nothing";
        }
        String flat = raw.strip().replaceAll("\\s+", " ");
        if (flat.isEmpty()) {
            return "empty output";
        }
        return "'" + (flat.length() > 80 ? flat.substring(0, 80) + "…" : flat) + "'";
    }
}
