package dev.tclab.host;

import jakarta.enterprise.context.ApplicationScoped;
import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * {@code tclab host add NAME [--admin]} and {@code tclab host passwd NAME}: the password is asked twice on a
 * terminal, or read as the first line of standard input (for scripts), and only its bcrypt hash is kept.
 */
@ApplicationScoped
public class HostCommand {

    public static final String USAGE = "tclab host add NAME [--admin] | tclab host passwd NAME"
            + " (the password is asked, or read from the first line of standard input)";

    private final HostAccounts accounts;

    public HostCommand(HostAccounts accounts) {
        this.accounts = accounts;
    }

    /** Runs the command; the exit code: 0 done, 1 refused, 2 bad usage. */
    public int run(List<String> args, PrintStream out, PrintStream err) throws IOException {
        if (args.size() < 2
                || !(args.get(0).equals("add") || args.get(0).equals("passwd"))
                || (args.get(0).equals("passwd") && args.size() != 2)
                || (args.size() == 3 && !args.get(2).equals("--admin"))
                || args.size() > 3) {
            err.println("usage: " + USAGE);
            return 2;
        }
        String name = args.get(1).toLowerCase(Locale.ROOT);
        if (!name.matches(HostAccount.NAME_PATTERN)) {
            err.println("A host name is 2 to 32 characters: a letter, then letters, digits, - or _.");
            return 2;
        }
        boolean add = args.get(0).equals("add");
        if (add && accounts.find(name).isPresent()) {
            err.println("There is already a host named " + name + "; use tclab host passwd " + name
                    + " to change its password.");
            return 1;
        }
        if (!add && accounts.find(name).isEmpty()) {
            err.println("There is no host named " + name + "; add it with tclab host add " + name + ".");
            return 1;
        }
        String password = readPassword(err);
        String weakness = Passwords.weakness(password);
        if (weakness != null) {
            err.println(weakness + " Nothing was changed.");
            return 1;
        }
        String hash = Passwords.hash(password);
        if (add) {
            boolean admin = args.size() == 3;
            if (!accounts.add(new HostAccount(name, hash, admin))) {
                err.println("There is already a host named " + name + ".");
                return 1;
            }
            out.println("Host " + name + (admin ? " (admin)" : "") + " added; sign in at /host/sign-in.");
        } else {
            accounts.setPassword(name, hash);
            out.println("Password of host " + name + " changed; its sessions signed in before are signed out.");
        }
        return 0;
    }

    private static String readPassword(PrintStream err) throws IOException {
        Console console = System.console();
        if (console != null) {
            char[] first = console.readPassword("Password (at least %d characters): ", Passwords.MIN_LENGTH);
            char[] again = console.readPassword("Password again: ");
            if (first == null || again == null || !new String(first).equals(new String(again))) {
                err.println("The two passwords differ.");
                return null;
            }
            return new String(first);
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        return in.readLine();
    }
}
