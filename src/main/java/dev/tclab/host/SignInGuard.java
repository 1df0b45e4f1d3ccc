package dev.tclab.host;

import dev.tclab.client.Clients;
import dev.tclab.client.Lockout;
import dev.tclab.config.TclabConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.jboss.logging.Logger;

/**
 * Slows and then locks guessing of host passwords (issue 25, row 5: 40 wrong passwords, never refused), per host name
 * and per client address: a growing wait after a few failures, then a lock, logged and listed for admins
 * ({@code GET /api/host/session}). A refused try is answered before the password is looked at. In memory, per
 * replica (docs/SECURITY.md).
 */
@ApplicationScoped
public class SignInGuard {

    private static final Logger LOG = Logger.getLogger(SignInGuard.class);

    /** A host name or address locked until {@code until}, for admins. */
    public record Locked(String what, int failures, Instant until) {}

    private final Lockout names;
    private final Lockout addresses;

    @Inject
    public SignInGuard(TclabConfig config, InstantSource clock) {
        this(config.guessing(), clock);
    }

    SignInGuard(TclabConfig.Guessing limits, InstantSource clock) {
        this.names = new Lockout(limits.signInFreeFailures(), limits.signInLockAfter(), limits.signInLock(), clock);
        this.addresses =
                new Lockout(limits.signInFreeFailures() * 2, limits.signInLockAfter() * 2, limits.signInLock(), clock);
    }

    /** How long a sign-in as {@code name} from {@code address} must wait; empty when it may be tried now. */
    Optional<Duration> wait(String name, String address) {
        return Stream.of(names.wait(name), addresses.wait(Clients.of(address)))
                .flatMap(Optional::stream)
                .max(Duration::compareTo);
    }

    void failed(String name, String address) {
        String client = Clients.of(address);
        names.failed(name)
                .ifPresent(lock -> LOG.warnf(
                        "Host sign-in locked until %s for host name %s after %d wrong "
                                + "passwords (the last from %s)",
                        lock.until(), name, lock.failures(), client));
        addresses
                .failed(client)
                .ifPresent(lock -> LOG.warnf(
                        "Host sign-in locked until %s for address %s after %d " + "wrong passwords",
                        lock.until(), client, lock.failures()));
    }

    void succeeded(String name) {
        names.succeeded(name);
    }

    /** The host names and addresses locked now. */
    public List<Locked> locks() {
        return Stream.concat(
                        names.locks().stream().map(l -> new Locked("host name " + l.key(), l.failures(), l.until())),
                        addresses.locks().stream().map(l -> new Locked("address " + l.key(), l.failures(), l.until())))
                .toList();
    }
}
