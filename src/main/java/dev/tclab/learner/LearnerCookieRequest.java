package dev.tclab.learner;

import io.quarkus.security.identity.request.BaseAuthenticationRequest;

/** A learner id read from a cookie whose signature was verified (or just issued with a new cookie). */
final class LearnerCookieRequest extends BaseAuthenticationRequest {

    private final String learnerId;

    LearnerCookieRequest(String learnerId) {
        this.learnerId = learnerId;
    }

    String learnerId() {
        return learnerId;
    }
}
