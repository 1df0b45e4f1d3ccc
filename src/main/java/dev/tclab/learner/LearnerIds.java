package dev.tclab.learner;

import dev.tclab.config.TclabConfig;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Anonymous learner ids carried in a signed cookie ({@code id.signature}), so a learner is recognised across
 * requests and WebSockets without an account, and cannot claim someone else's id. The signing key is made once and
 * kept in the database (so learners survive a restart), unless {@code tclab.learner.cookie-secret} sets it. Made at
 * start, so the key is never read from the database on the event loop that checks cookies.
 */
@ApplicationScoped
@Startup
public class LearnerIds {

    public static final String COOKIE = "tclab_learner";
    static final String KEY_NAME = "learner-cookie-key";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] key;

    public LearnerIds(TclabConfig config, SecretStore secrets) {
        this.key = config.learner()
                .cookieSecret()
                .map(secret -> secret.getBytes(StandardCharsets.UTF_8))
                .orElseGet(() -> Base64.getDecoder()
                        .decode(secrets.getOrCreate(
                                KEY_NAME, () -> Base64.getEncoder().encodeToString(randomKey()))));
    }

    /** A fresh learner id. */
    public String newId() {
        byte[] bytes = new byte[9];
        RANDOM.nextBytes(bytes);
        return "l" + HexFormat.of().formatHex(bytes);
    }

    /** The cookie value for an id. */
    public String sign(String id) {
        return id + "." + signature(id);
    }

    /** The id in a cookie value, if its signature is ours. */
    public Optional<String> verify(String cookieValue) {
        if (cookieValue == null) {
            return Optional.empty();
        }
        int dot = cookieValue.lastIndexOf('.');
        if (dot <= 0) {
            return Optional.empty();
        }
        String id = cookieValue.substring(0, dot);
        byte[] expected = signature(id).getBytes(StandardCharsets.US_ASCII);
        byte[] given = cookieValue.substring(dot + 1).getBytes(StandardCharsets.US_ASCII);
        return MessageDigest.isEqual(expected, given) ? Optional.of(id) : Optional.empty();
    }

    private String signature(String id) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            byte[] digest = mac.doFinal(id.getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    private static byte[] randomKey() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return bytes;
    }
}
