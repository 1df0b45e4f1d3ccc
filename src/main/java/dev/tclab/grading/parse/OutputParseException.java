package dev.tclab.grading.parse;

/** A command's output is not what its parser expects; the message says what was expected and what came. */
public class OutputParseException extends Exception {

    public OutputParseException(String message) {
        super(message);
    }

    public OutputParseException(String message, Throwable cause) {
        super(message, cause);
    }

    static String excerpt(String raw) {
        if (raw == null || raw.isBlank()) {
            return "empty output";
        }
        String flat = raw.strip().replaceAll("\\s+", " ");
        return "'" + (flat.length() > 80 ? flat.substring(0, 80) + "…" : flat) + "'";
    }
}
