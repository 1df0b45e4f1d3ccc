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
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Host sessions as signed cookie values {@code name.role.expiry.signature}: the name and admin flag are read
 * without a database call (so the mechanism can run on the event loop), and a session ends at its expiry whatever
 * the browser does. The key is made once and kept in the database, like the learner cookie's, so sessions survive a
 * restart; it is a different key, so a learner cookie can never pass for a host's.
 */
@ApplicationScoped
@Startup
public class HostSessions {

    public static final String COOKIE = "tclab_host";
    static final String KEY_NAME = "host-session-key";

    /** A verified session. */
    public record Session(String name, boolean admin, Instant expires) {
    }

    private final byte[] key;
    private final Duration timeout;
    private final Clock clock;

    @Inject
    public HostSessions(TclabConfig config, SecretStore secrets) {
        this(Base64.getDecoder().decode(secrets.getOrCreate(KEY_NAME, HostSessions::randomKey)),
                config.workshop().hostSessionTimeout(), Clock.systemUTC());
    }

    HostSessions(byte[] key, Duration timeout, Clock clock) {
        this.key = key.clone();
        this.timeout = timeout;
        this.clock = clock;
    }

    /** How long a sign-in lasts. */
    public Duration timeout() {
        return timeout;
    }

    /** A cookie value for a fresh session of this account. */
    public String issue(HostAccount account) {
        String payload = account.name() + "." + (account.admin() ? "a" : "h") + "."
                + clock.instant().plus(timeout).getEpochSecond();
        return payload + "." + signature(payload);
    }

    /** The session in a cookie value, if the signature is ours and it has not expired. */
    public Optional<Session> verify(String cookieValue) {
        if (cookieValue == null) {
            return Optional.empty();
        }
        String[] parts = cookieValue.split("\\.", -1);
        if (parts.length != 4 || !parts[0].matches(HostAccount.NAME_PATTERN) || !parts[1].matches("[ah]")
                || !parts[2].matches("[0-9]{1,12}")) {
            return Optional.empty();
        }
        String payload = parts[0] + "." + parts[1] + "." + parts[2];
        if (!MessageDigest.isEqual(signature(payload).getBytes(StandardCharsets.US_ASCII),
                parts[3].getBytes(StandardCharsets.US_ASCII))) {
            return Optional.empty();
        }
        Instant expires = Instant.ofEpochSecond(Long.parseLong(parts[2]));
        if (!clock.instant().isBefore(expires)) {
            return Optional.empty();
        }
        return Optional.of(new Session(parts[0], parts[1].equals("a"), expires));
    }

    private String signature(String payload) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(mac.doFinal(payload.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    private static String randomKey() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }
}
