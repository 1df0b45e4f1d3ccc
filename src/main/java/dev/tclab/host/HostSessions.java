package dev.tclab.host;

import dev.tclab.config.TclabConfig;
import dev.tclab.learner.SecretStore;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Host sessions as signed cookie values {@code name.role.expiry.id.signature}: the signature and expiry are checked
 * without a database call (so the mechanism can refuse forgeries on the event loop), and a session ends at its expiry
 * whatever the browser does. Each session's random id is also kept in the database ({@link HostSessionStore}) until
 * sign-out or a password change ends it, so a copied cookie stops working then ({@link #isOpen}, checked by the
 * identity provider, off the event loop). The key is made once and kept in the database, like the learner cookie's,
 * so sessions survive a restart; it is a different key, so a learner cookie can never pass for a host's.
 */
@ApplicationScoped
@Startup
public class HostSessions {

    public static final String COOKIE = "tclab_host";
    static final String KEY_NAME = "host-session-key";

    /** A verified session. */
    public record Session(String name, boolean admin, Instant expires, String id) {}

    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] key;
    private final Duration timeout;
    private final InstantSource clock;
    private final HostSessionStore store;

    @Inject
    public HostSessions(TclabConfig config, SecretStore secrets, HostSessionStore store, InstantSource clock) {
        this(
                Base64.getDecoder().decode(secrets.getOrCreate(KEY_NAME, HostSessions::randomKey)),
                config.workshop().hostSessionTimeout(),
                clock,
                store);
    }

    HostSessions(byte[] key, Duration timeout, InstantSource clock, HostSessionStore store) {
        this.key = key.clone();
        this.timeout = timeout;
        this.clock = clock;
        this.store = store;
    }

    /** How long a sign-in lasts. */
    public Duration timeout() {
        return timeout;
    }

    /** A cookie value for a fresh session of this account, kept open until it expires or is ended. Blocks. */
    public String issue(HostAccount account) {
        Instant expires = Instant.ofEpochSecond(clock.instant().plus(timeout).getEpochSecond());
        byte[] id = new byte[18];
        RANDOM.nextBytes(id);
        String sessionId = Base64.getUrlEncoder().withoutPadding().encodeToString(id);
        store.open(sessionId, account.name(), expires);
        String payload =
                account.name() + "." + (account.admin() ? "a" : "h") + "." + expires.getEpochSecond() + "." + sessionId;
        return payload + "." + signature(payload);
    }

    /** Whether a verified session is still open on the server (not signed out, no password change). Blocks. */
    public boolean isOpen(Session session) {
        return store.isOpen(session.id(), session.name(), clock.instant());
    }

    /** Ends the session on the server: its cookie is no longer honoured anywhere. Blocks. */
    public void end(Session session) {
        store.end(session.id());
    }

    /**
     * The session in a cookie value, if the signature is ours and it has not expired. Whether it is still open is
     * {@link #isOpen}'s to say.
     */
    public Optional<Session> verify(String cookieValue) {
        if (cookieValue == null) {
            return Optional.empty();
        }
        String[] parts = cookieValue.split("\\.", -1);
        if (parts.length != 5
                || !parts[0].matches(HostAccount.NAME_PATTERN)
                || !parts[1].matches("[ah]")
                || !parts[2].matches("[0-9]{1,12}")
                || !parts[3].matches("[A-Za-z0-9_-]{24}")) {
            return Optional.empty();
        }
        String payload = parts[0] + "." + parts[1] + "." + parts[2] + "." + parts[3];
        if (!MessageDigest.isEqual(
                signature(payload).getBytes(StandardCharsets.US_ASCII), parts[4].getBytes(StandardCharsets.US_ASCII))) {
            return Optional.empty();
        }
        Instant expires = Instant.ofEpochSecond(Long.parseLong(parts[2]));
        if (!clock.instant().isBefore(expires)) {
            return Optional.empty();
        }
        return Optional.of(new Session(parts[0], parts[1].equals("a"), expires, parts[3]));
    }

    private String signature(String payload) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return Base64.getUrlEncoder()
                    .withoutPadding()
                    .encodeToString(mac.doFinal(payload.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    private static String randomKey() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }
}
