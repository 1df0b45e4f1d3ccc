package dev.tclab.http;

/**
 * Input that a refusal repeats back (a lesson slug, a lab id, a join code), cut so that an error body never grows
 * with what a client sent: a 10 MB slug came back whole in a 404 once (issue 25, row 7).
 */
public final class Quote {

    /** At most this many characters of the input are repeated. */
    public static final int MAX_CHARS = 200;

    private Quote() {}

    /** {@code 'input'}, or its first 200 characters followed by how long it was. */
    public static String of(String input) {
        if (input == null) {
            return "''";
        }
        if (input.length() <= MAX_CHARS) {
            return "'" + input + "'";
        }
        // Never split a surrogate pair: a lone half is not valid text in a JSON body.
        int end = Character.isHighSurrogate(input.charAt(MAX_CHARS - 1)) ? MAX_CHARS - 1 : MAX_CHARS;
        return "'" + input.substring(0, end) + "…' (" + input.length() + " characters, cut)";
    }
}
