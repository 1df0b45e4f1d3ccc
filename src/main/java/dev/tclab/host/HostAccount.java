package dev.tclab.host;

/**
 * A host account as kept: its name, its password's bcrypt hash (modular crypt format) and whether it is an admin
 * (sees every workshop, not only its own).
 */
public record HostAccount(String name, String passwordHash, boolean admin) {

    /** Names are short slugs, so they can go in a cookie and a URL unescaped. */
    public static final String NAME_PATTERN = "[a-z][a-z0-9_-]{1,31}";

    @Override
    public String toString() {
        return "HostAccount[" + name + (admin ? ", admin" : "") + "]";
    }
}
