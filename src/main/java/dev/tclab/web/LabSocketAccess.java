package dev.tclab.web;

import dev.tclab.lab.Lab;
import dev.tclab.lab.LabNotFoundException;
import dev.tclab.lab.LabService;
import dev.tclab.learner.LearnerIds;
import io.netty.handler.codec.http.cookie.Cookie;
import io.netty.handler.codec.http.cookie.ServerCookieDecoder;
import io.quarkus.websockets.next.HandshakeRequest;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

/**
 * Who is on the other end of a WebSocket, and which of their labs it is about. The learner comes from the signed
 * {@code tclab_learner} cookie of the handshake; the lab must be running and theirs. (The Origin was already
 * checked by {@link SameOriginUpgradeCheck}.)
 */
@ApplicationScoped
public class LabSocketAccess {

    /** A learner and their running lab. */
    public record Grant(String learner, Lab lab) {
    }

    private final LearnerIds learnerIds;
    private final LabService labs;

    public LabSocketAccess(LearnerIds learnerIds, LabService labs) {
        this.learnerIds = learnerIds;
        this.labs = labs;
    }

    public Grant grant(HandshakeRequest handshake, String labId) throws SocketRefusedException {
        String learner = learnerOf(handshake).orElseThrow(() -> new SocketRefusedException(
                SocketCloseCodes.LAB_NOT_FOUND, "This browser has no valid tclab cookie; reload the lesson page."));
        try {
            return new Grant(learner, labs.getRunning(labId, learner));
        } catch (LabNotFoundException e) {
            throw new SocketRefusedException(SocketCloseCodes.LAB_NOT_FOUND, e.getMessage());
        }
    }

    private Optional<String> learnerOf(HandshakeRequest handshake) {
        List<String> headers = handshake.headers("Cookie");
        if (headers == null) {
            return Optional.empty();
        }
        for (String header : headers) {
            for (Cookie cookie : ServerCookieDecoder.LAX.decode(header)) {
                if (LearnerIds.COOKIE.equals(cookie.name())) {
                    return learnerIds.verify(cookie.value());
                }
            }
        }
        return Optional.empty();
    }
}
