package dev.tclab.runtime;

/** What an engine's failure says to an operator: its innermost cause's message. */
public final class RootCause {

    private RootCause() {}

    /** The innermost cause's message (its class name when it has none): what an operator can act on. */
    public static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return message.trim();
    }
}
