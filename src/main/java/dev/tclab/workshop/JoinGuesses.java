package dev.tclab.workshop;

import dev.tclab.client.Clients;
import dev.tclab.client.FailureWindow;
import dev.tclab.config.TclabConfig;
import dev.tclab.http.RetryAfter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Optional;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * Limits guessing workshop join codes (issue 25, row 4: 701 tries a second from 16 threads, never refused): wrong
 * codes per client address and from everyone together, each within a sliding window; past either, every join and
 * preview from that client (or everyone) waits, 429 with Retry-After, before any code is looked up. In memory, per
 * replica (docs/SECURITY.md).
 */
@ApplicationScoped
public class JoinGuesses {

    private static final Logger LOG = Logger.getLogger(JoinGuesses.class);
    private static final String EVERYONE = "";

    private final FailureWindow perAddress;
    private final FailureWindow total;

    @Inject
    public JoinGuesses(TclabConfig config, InstantSource clock) {
        this(config.guessing(), clock);
    }

    JoinGuesses(TclabConfig.Guessing limits, InstantSource clock) {
        this.perAddress = new FailureWindow(limits.joinFailuresPerAddress(), limits.joinFailureWindow(), clock);
        this.total = new FailureWindow(limits.joinFailuresTotal(), limits.joinFailureWindow(), clock);
    }

    /** Runs a lookup by code for the client at {@code address}, counting an unknown code as a failure. */
    public <T> T attempt(String address, Supplier<T> lookup) {
        String client = Clients.of(address);
        Optional<Duration> wait = perAddress.wait(client);
        if (wait.isPresent()) {
            throw refusal("Too many wrong join codes came from your network address in a short time.", wait.get());
        }
        wait = total.wait(EVERYONE);
        if (wait.isPresent()) {
            throw refusal("Too many wrong join codes reached this server in a short time.", wait.get());
        }
        try {
            return lookup.get();
        } catch (WorkshopRefusal e) {
            if (e.kind() == WorkshopRefusal.Kind.NOT_FOUND) {
                perAddress.failed(client);
                total.failed(EVERYONE);
                if (perAddress.wait(client).isPresent()) {
                    LOG.warnf("Join codes from %s refused for a while: too many wrong codes", client);
                }
            }
            throw e;
        }
    }

    private static WorkshopRefusal refusal(String why, Duration wait) {
        long seconds = RetryAfter.seconds(wait);
        return new WorkshopRefusal(
                WorkshopRefusal.Kind.TOO_MANY,
                why + " Wait " + seconds + " s, then check the code on the projector and type it again.",
                wait);
    }
}
