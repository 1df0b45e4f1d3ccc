package dev.tclab.host;

import java.time.Instant;

/** Where open host sessions are kept (the database), so that they can be ended on the server. Calls block. */
public interface HostSessionStore {

    /** Keeps a new session; forgets sessions already past their expiry while at it. */
    void open(String sessionId, String host, Instant expires);

    /** Whether the session of {@code host} is open (kept, not ended, not past its expiry at {@code now}). */
    boolean isOpen(String sessionId, String host, Instant now);

    /** Ends one session (sign-out). Idempotent. */
    void end(String sessionId);
}
