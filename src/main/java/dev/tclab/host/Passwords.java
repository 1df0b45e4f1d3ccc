package dev.tclab.host;

import io.quarkus.elytron.security.common.BcryptUtil;
import java.security.GeneralSecurityException;
import java.security.spec.InvalidKeySpecException;
import org.wildfly.security.password.Password;
import org.wildfly.security.password.PasswordFactory;
import org.wildfly.security.password.WildFlyElytronPasswordProvider;
import org.wildfly.security.password.interfaces.BCryptPassword;
import org.wildfly.security.password.util.ModularCrypt;

/** Bcrypt hashes of host passwords (cost 12, about a quarter second: sign-ins are rare, guesses should be slow). */
public final class Passwords {

    /** Shortest password accepted; a host account controls other people's labs. */
    public static final int MIN_LENGTH = 10;

    private static final int COST = 12;
    private static final WildFlyElytronPasswordProvider PROVIDER = new WildFlyElytronPasswordProvider();
    /** Checked when the account does not exist, so an unknown name takes as long as a wrong password. */
    private static final String DECOY = BcryptUtil.bcryptHash("decoy-password-never-used", COST);

    private Passwords() {}

    public static String hash(String password) {
        return BcryptUtil.bcryptHash(password, COST);
    }

    /** Whether {@code password} matches {@code hash}; a null hash (no such account) is checked against a decoy. */
    public static boolean matches(String hash, String password) {
        try {
            PasswordFactory factory = PasswordFactory.getInstance(BCryptPassword.ALGORITHM_BCRYPT, PROVIDER);
            Password stored = factory.translate(ModularCrypt.decode(hash == null ? DECOY : hash));
            return factory.verify(stored, password.toCharArray()) && hash != null;
        } catch (InvalidKeySpecException e) {
            return false;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("bcrypt is not available: " + e.getMessage(), e);
        }
    }

    /** Why a new password is refused, or null when it is fine. */
    public static String weakness(String password) {
        if (password == null || password.length() < MIN_LENGTH) {
            return "The password needs at least " + MIN_LENGTH + " characters.";
        }
        if (password.length() > 72) {
            return "The password may have at most 72 characters (bcrypt ignores the rest).";
        }
        return null;
    }
}
