package dev.tclab.web;

import io.quarkus.websockets.next.HttpUpgradeCheck;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/**
 * Refuses every WebSocket handshake whose Origin is not this server (HTTP 403), so a page on another site cannot
 * drive a learner's terminal with the learner's cookie (cross-site WebSocket hijacking). Browsers always send
 * Origin on WebSocket handshakes, so a handshake without one is refused too. {@link Origins} reads the header.
 */
@ApplicationScoped
public class SameOriginUpgradeCheck implements HttpUpgradeCheck {

    private static final Logger LOG = Logger.getLogger(SameOriginUpgradeCheck.class);

    @Override
    public Uni<CheckResult> perform(HttpUpgradeContext context) {
        HttpServerRequest request = context.httpRequest();
        String origin = request.getHeader(HttpHeaders.ORIGIN);
        String host = request.getHeader(HttpHeaders.HOST);
        if (Origins.sameOrigin(origin, host, request.isSSL())) {
            return CheckResult.permitUpgrade();
        }
        LOG.debugf("refused WebSocket %s: origin %s is not host %s", request.path(), origin, host);
        return CheckResult.rejectUpgrade(403);
    }
}
