package dev.tclab.host;

import io.quarkus.security.identity.request.BaseAuthenticationRequest;

/** A host session read from a cookie whose signature and expiry were verified. */
final class HostCookieRequest extends BaseAuthenticationRequest {

    private final HostSessions.Session session;

    HostCookieRequest(HostSessions.Session session) {
        this.session = session;
    }

    HostSessions.Session session() {
        return session;
    }
}
