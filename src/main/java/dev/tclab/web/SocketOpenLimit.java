package dev.tclab.web;

import dev.tclab.client.Clients;
import dev.tclab.client.FailureWindow;
import dev.tclab.config.TclabConfig;
import dev.tclab.http.RetryAfter;
import dev.tclab.learner.Roles;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.websockets.next.HttpUpgradeCheck;
import io.smallrye.mutiny.Uni;
import io.vertx.core.net.SocketAddress;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Bounds how fast one learner opens WebSockets (issue 25, row 2): past {@code tclab.sockets.opens-per-learner} opens
 * within {@code tclab.sockets.opens-window}, the handshake is refused with 429 and Retry-After before it upgrades.
 * The per-learner caps close older sockets when newer ones open, but every open still costs a handshake, a worker
 * and a close: 6,000 opens from one cookie kept the event loops busy enough to hold other requests for half a
 * second. A refused handshake costs one small HTTP answer. A page opens one socket per node and kind, and again on a
 * reload, so the default leaves room for a dozen reloads a minute. A request without a learner counts against its
 * network address (it gets no lab's socket anyway); hosts are not limited, since a host watching a class opens
 * many learners' terminals.
 */
@ApplicationScoped
public class SocketOpenLimit implements HttpUpgradeCheck {

    private static final Logger LOG = Logger.getLogger(SocketOpenLimit.class);

    private final FailureWindow opens;

    @Inject
    public SocketOpenLimit(TclabConfig config, InstantSource clock) {
        this(config.sockets(), clock);
    }

    SocketOpenLimit(TclabConfig.Sockets limits, InstantSource clock) {
        this.opens = new FailureWindow(limits.opensPerLearner(), limits.opensWindow(), clock);
    }

    @Override
    public Uni<CheckResult> perform(HttpUpgradeContext context) {
        // A cookie that does not verify is no learner: its opens count against its address.
        return context.securityIdentity().onFailure().recoverWithNull().map(identity -> check(identity, context));
    }

    private CheckResult check(SecurityIdentity identity, HttpUpgradeContext context) {
        if (identity != null && identity.hasRole(Roles.HOST)) {
            return CheckResult.permitUpgradeSync();
        }
        String key = identity != null && identity.hasRole(Roles.LEARNER)
                ? "learner " + identity.getPrincipal().getName()
                : "address " + Clients.of(hostOf(context.httpRequest().remoteAddress()));
        Optional<Duration> wait = opens.wait(key);
        if (wait.isPresent()) {
            LOG.debugf(
                    "refused WebSocket %s of %s: too many opens",
                    context.httpRequest().path(), key);
            return CheckResult.rejectUpgradeSync(
                    429, Map.of("Retry-After", List.of(Long.toString(RetryAfter.seconds(wait.get())))));
        }
        opens.failed(key); // a FailureWindow counts any event: here, an open
        return CheckResult.permitUpgradeSync();
    }

    private static String hostOf(SocketAddress address) {
        return address == null ? null : address.hostAddress();
    }
}
