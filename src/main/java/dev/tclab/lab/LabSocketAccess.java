package dev.tclab.lab;

import dev.tclab.http.SocketCloseCodes;
import dev.tclab.http.SocketRefusedException;
import dev.tclab.learner.CurrentLearner;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Who is on the other end of a WebSocket, and which of their labs it is about. The learner is the connection's
 * security identity (from the handshake's cookie, as for any request); the lab must be running and theirs. (The
 * Origin was already checked by the web layer's SameOriginUpgradeCheck.) Call it from a socket callback.
 */
@ApplicationScoped
public class LabSocketAccess {

    /** A learner and their running lab. */
    public record Grant(String learner, Lab lab) {}

    private final CurrentLearner learner;
    private final LabService labs;

    public LabSocketAccess(CurrentLearner learner, LabService labs) {
        this.learner = learner;
        this.labs = labs;
    }

    public Grant grant(String labId) throws SocketRefusedException {
        String owner = learner.id();
        try {
            return new Grant(owner, labs.getRunning(labId, owner));
        } catch (LabNotFoundException e) {
            throw new SocketRefusedException(SocketCloseCodes.LAB_NOT_FOUND, e.getMessage());
        }
    }
}
