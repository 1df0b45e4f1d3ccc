package dev.tclab.runtime.agent;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Names the version of the scripts a lab's container runs (the agent, a UML kernel's init and lab.pl) by their
 * content, for a label: a container made by another build carries another name, however small the change, so no
 * version number has to be remembered to be raised.
 */
final class ScriptDigest {

    private ScriptDigest() {}

    /** The first 12 hex digits of the SHA-256 of the scripts, each preceded by its length. */
    static String of(String... scripts) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (String script : scripts) {
                byte[] bytes = script.getBytes(StandardCharsets.UTF_8);
                sha.update((bytes.length + ":").getBytes(StandardCharsets.US_ASCII));
                sha.update(bytes);
            }
            return HexFormat.of().formatHex(sha.digest()).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
