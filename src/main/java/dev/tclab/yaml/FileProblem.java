package dev.tclab.yaml;

/** One thing wrong in an author's file, located so the author can go straight to it. */
public record FileProblem(String file, int line, String field, String message) {

    @Override
    public String toString() {
        String where = line > 0 ? file + ":" + line : file;
        return field == null || field.isEmpty() ? where + ": " + message : where + ": " + field + ": " + message;
    }

    /** As a warning is printed: {@code file:line: warning: message}. */
    public String asWarning() {
        String where = line > 0 ? file + ":" + line : file;
        return where + ": warning: " + (field == null || field.isEmpty() ? message : field + ": " + message);
    }
}
