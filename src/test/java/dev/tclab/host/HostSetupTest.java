package dev.tclab.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The one-time setup token: printed once with no host, accepted once, void once any host exists. */
class HostSetupTest {

    private static final Pattern TOKEN = Pattern.compile("one-time setup token: ([A-Z0-9]{24}) ");
    private static final String PASSWORD = "correct horse battery";

    /** Host accounts as the database keeps them. */
    private static final class Kept implements HostAccounts {
        final Map<String, HostAccount> accounts = new ConcurrentHashMap<>();

        @Override
        public boolean add(HostAccount account) {
            return accounts.putIfAbsent(account.name(), account) == null;
        }

        @Override
        public boolean setPassword(String name, String passwordHash) {
            return accounts.computeIfPresent(name, (n, a) -> new HostAccount(n, passwordHash, a.admin())) != null;
        }

        @Override
        public Optional<HostAccount> find(String name) {
            return Optional.ofNullable(accounts.get(name));
        }

        @Override
        public int count() {
            return accounts.size();
        }
    }

    private final Kept accounts = new Kept();
    private final List<String> log = new ArrayList<>();
    private final HostSetup setup = new HostSetup(accounts, log::add);

    private String printedToken() {
        assertThat(log).hasSize(1);
        Matcher m = TOKEN.matcher(log.get(0));
        assertThat(m.find()).as(log.get(0)).isTrue();
        return m.group(1);
    }

    @Test
    void theTokenIsPrintedOnceAndCreatesTheFirstHostAnAdminOnce() {
        setup.announce();
        setup.announce();
        String token = printedToken();
        assertThat(log.get(0)).contains("/host/setup").contains("bin/tclab host add");
        assertThat(setup.open()).isTrue();

        HostSetup.Refusal wrong =
                assertThrows(HostSetup.Refusal.class, () -> setup.createFirstHost("NOTTHETOKEN", "alice", PASSWORD));
        assertThat(wrong.status()).isEqualTo(403);
        assertThat(wrong.getMessage()).contains("server's log");
        assertThat(assertThrows(HostSetup.Refusal.class, () -> setup.createFirstHost(token, "alice", "short"))
                        .status())
                .isEqualTo(400);
        assertThat(assertThrows(HostSetup.Refusal.class, () -> setup.createFirstHost(token, "9 bad", PASSWORD))
                        .status())
                .isEqualTo(400);
        assertThat(accounts.count()).as("refusals create nothing").isZero();

        HostAccount first = setup.createFirstHost(" " + token.toLowerCase() + " ", "Alice", PASSWORD);
        assertThat(first.name()).isEqualTo("alice");
        assertThat(first.admin()).isTrue();
        assertThat(Passwords.matches(accounts.find("alice").orElseThrow().passwordHash(), PASSWORD))
                .isTrue();
        assertThat(setup.open()).isFalse();

        HostSetup.Refusal again =
                assertThrows(HostSetup.Refusal.class, () -> setup.createFirstHost(token, "mallory", PASSWORD));
        assertThat(again.status()).isEqualTo(410);
        assertThat(again.getMessage()).contains("/host/sign-in");
        assertThat(accounts.count()).isEqualTo(1);
    }

    @Test
    void noTokenIsPrintedWhenAHostExistsAndAPrintedOneDiesWhenAHostIsAddedOtherwise() {
        accounts.add(new HostAccount("bob", TestHosts.hash(PASSWORD), false));
        setup.announce();
        assertThat(log).isEmpty();
        assertThat(setup.open()).isFalse();
        assertThat(assertThrows(HostSetup.Refusal.class, () -> setup.createFirstHost("ANY", "eve", PASSWORD))
                        .status())
                .isEqualTo(410);

        HostSetup fresh = new HostSetup(new Kept(), log::add);
        fresh.announce();
        String token = printedToken();
        HostSetup.Refusal refused = assertThrows(
                HostSetup.Refusal.class,
                () -> new HostSetup(accounts, log::add).createFirstHost(token, "eve", PASSWORD));
        assertThat(refused.status()).as("a token belongs to its process").isEqualTo(410);
    }
}
