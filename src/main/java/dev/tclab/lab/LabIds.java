package dev.tclab.lab;

import java.security.SecureRandom;
import java.util.HexFormat;

/** New lab ids: random, so one learner cannot guess another's lab. */
final class LabIds {

    private static final SecureRandom RANDOM = new SecureRandom();

    private LabIds() {}

    static String next() {
        byte[] bytes = new byte[5];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
