package dev.tclab.workshop;

import java.security.SecureRandom;
import java.util.Locale;

/**
 * Join codes: six characters from an alphabet without look-alikes (no 0/O, 1/I/L, 8/B, U/V: the letter is kept, the digit dropped), easy to read off a
 * projector and to type; 28^6 (about 480 million) codes, so guessing one in use is hopeless.
 */
public final class JoinCodes {

    static final String ALPHABET = "ABCDEFGHJKMNPQRSTWXYZ2345679";
    static final int LENGTH = 6;
    private static final SecureRandom RANDOM = new SecureRandom();

    private JoinCodes() {}

    public static String next() {
        StringBuilder code = new StringBuilder(LENGTH);
        for (int i = 0; i < LENGTH; i++) {
            code.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return code.toString();
    }

    /** A typed code as stored: upper case, spaces and dashes dropped. */
    public static String normalise(String typed) {
        return typed == null ? "" : typed.replaceAll("[\\s-]", "").toUpperCase(Locale.ROOT);
    }
}
