package dev.tclab.http;

/**
 * What a WebSocket says when a callback fails. The one expected failure is a message above
 * {@code quarkus.websockets-next.server.max-message-size} (64 KiB, sent in several frames): Vert.x reports it as an
 * {@link IllegalStateException}, which would otherwise close the socket as an internal error (1011) with a stack
 * trace in the log.
 */
public final class SocketErrors {

    private SocketErrors() {}

    public static boolean isTooBig(Throwable error) {
        return error instanceof IllegalStateException
                && error.getMessage() != null
                && error.getMessage().startsWith("Cannot process ");
    }

    public static int closeCode(Throwable error) {
        return isTooBig(error) ? SocketCloseCodes.TOO_BIG : 1011;
    }

    /** @param what the socket, for the learner: "terminal", "statistics" */
    public static String explain(Throwable error, String what) {
        return isTooBig(error)
                ? "A message above 64 KiB was refused, so the " + what + " socket closes; the page reconnects by "
                        + "itself. (The terminal sends big pastes in smaller parts.)"
                : "The " + what + " socket failed: " + error.getMessage();
    }
}
