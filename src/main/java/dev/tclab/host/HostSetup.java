package dev.tclab.host;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Locale;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * The first host account without a command line: a server that starts serving with no host account prints a
 * one-time setup token in its log, once; whoever gives it at {@code /host/setup} creates the first host (an admin).
 * The token lives only in this process's memory: it is used up by that creation, is void as soon as any host exists
 * (however added), and a restart with still no host prints a fresh one.
 */
@ApplicationScoped
public class HostSetup {

    private static final Logger LOG = Logger.getLogger(HostSetup.class);
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Letters and digits without look-alikes, as in join codes, so the token can be typed from a screen. */
    private static final String ALPHABET = "ABCDEFGHJKMNPQRSTWXYZ23456789";

    private static final int LENGTH = 24;

    /** Why a setup was refused: an HTTP status and what to do. */
    public static final class Refusal extends RuntimeException {
        private final int status;

        Refusal(int status, String message) {
            super(message);
            this.status = status;
        }

        public int status() {
            return status;
        }
    }

    private final HostAccounts accounts;
    private final Consumer<String> log;
    private String token;

    @Inject
    public HostSetup(HostAccounts accounts) {
        this(accounts, LOG::warn);
    }

    HostSetup(HostAccounts accounts, Consumer<String> log) {
        this.accounts = accounts;
        this.log = log;
    }

    /** Called once the server serves: prints a setup token if there is no host account yet. Blocks. */
    public synchronized void announce() {
        if (token != null || accounts.count() > 0) {
            return;
        }
        StringBuilder made = new StringBuilder();
        for (int i = 0; i < LENGTH; i++) {
            made.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        token = made.toString();
        log.accept("No workshop host account exists yet. To create the first (an admin), open /host/setup and give "
                + "this one-time setup token: " + token
                + " (or stop the server and run bin/tclab host add NAME --admin)");
    }

    /** Whether a setup token is waiting to be used (no host exists and one was printed). Blocks. */
    public synchronized boolean open() {
        if (token != null && accounts.count() > 0) {
            token = null;
        }
        return token != null;
    }

    /**
     * Creates the first host, an admin, if {@code given} is the printed token and still no host exists; the token
     * is then gone. Blocks.
     *
     * @throws Refusal 410 when a host exists or no token was printed, 403 for another token, 400 for a bad name or
     *                 weak password
     */
    public synchronized HostAccount createFirstHost(String given, String name, String password) {
        if (!open()) {
            throw new Refusal(
                    410,
                    "The setup is done: a host account exists already. Sign in at /host/sign-in; "
                            + "a server admin adds more hosts with bin/tclab host add NAME.");
        }
        if (given == null
                || !MessageDigest.isEqual(
                        token.getBytes(StandardCharsets.US_ASCII),
                        given.strip().toUpperCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII))) {
            throw new Refusal(
                    403,
                    "That is not the setup token. Copy the one in the server's log (the line that "
                            + "says \"one-time setup token\" at its latest start).");
        }
        String host = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
        if (!host.matches(HostAccount.NAME_PATTERN)) {
            throw new Refusal(400, "A host name is 2 to 32 characters: a letter, then letters, digits, - or _.");
        }
        String weakness = Passwords.weakness(password);
        if (weakness != null) {
            throw new Refusal(400, weakness);
        }
        HostAccount account = new HostAccount(host, Passwords.hash(password), true);
        if (!accounts.add(account)) {
            throw new Refusal(410, "A host named " + host + " exists already: sign in at /host/sign-in.");
        }
        token = null;
        return account;
    }
}
