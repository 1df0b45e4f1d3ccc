package dev.tclab.web;

import io.quarkus.websockets.next.HttpUpgradeCheck;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import org.jboss.logging.Logger;

/**
 * Refuses every WebSocket handshake whose Origin is not this server (HTTP 403), so a page on another site cannot
 * drive a learner's terminal with the learner's cookie (cross-site WebSocket hijacking). Browsers always send
 * Origin on WebSocket handshakes, so a handshake without one is refused too.
 */
@ApplicationScoped
public class SameOriginUpgradeCheck implements HttpUpgradeCheck {

    private static final Logger LOG = Logger.getLogger(SameOriginUpgradeCheck.class);

    @Override
    public Uni<CheckResult> perform(HttpUpgradeContext context) {
        HttpServerRequest request = context.httpRequest();
        String origin = request.getHeader(HttpHeaders.ORIGIN);
        String host = request.getHeader(HttpHeaders.HOST);
        if (sameOrigin(origin, host, request.isSSL())) {
            return CheckResult.permitUpgrade();
        }
        LOG.debugf("refused WebSocket %s: origin %s is not host %s", request.path(), origin, host);
        return CheckResult.rejectUpgrade(403);
    }

    /** True when {@code origin} (scheme://host[:port]) names the same host and port as the Host header. */
    static boolean sameOrigin(String origin, String host, boolean secure) {
        if (origin == null || host == null || host.isBlank()) {
            return false;
        }
        try {
            URI originUri = new URI(origin);
            URI hostUri = new URI((secure ? "https://" : "http://") + host);
            if (originUri.getHost() == null || hostUri.getHost() == null) {
                return false;
            }
            return originUri.getHost().toLowerCase(Locale.ROOT).equals(hostUri.getHost().toLowerCase(Locale.ROOT))
                    && effectivePort(originUri) == effectivePort(hostUri);
        } catch (URISyntaxException e) {
            return false;
        }
    }

    private static int effectivePort(URI uri) {
        if (uri.getPort() != -1) {
            return uri.getPort();
        }
        return "https".equalsIgnoreCase(uri.getScheme()) || "wss".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    }
}
