package dev.tclab.terminal;

/** The JSON control messages the server sends on a terminal socket (text frames). */
final class TerminalFrames {

    /** Something the page sent or asked for could not be done; the socket may stay open. */
    record Error(String type, String message) {
        Error(String message) {
            this("error", message);
        }
    }

    /** The shell ended; a new connection starts a new shell. */
    record Exit(String type, String reason) {
        Exit(String reason) {
            this("exit", reason);
        }
    }

    /**
     * Sent once the socket has its shell: {@code fresh} when the shell was started for this connection (the first
     * one, or after the old shell ended or the server restarted), so a reconnecting page can say so.
     */
    record Shell(String type, boolean fresh) {
        Shell(boolean fresh) {
            this("shell", fresh);
        }
    }

    private TerminalFrames() {}
}
