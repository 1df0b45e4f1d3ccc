package dev.tclab.terminal;

import dev.tclab.http.SocketRefusedException;
import dev.tclab.lab.Lab;

/**
 * Whether the host of the current WebSocket may see (and, taking over, type in) a learner's shell. Implemented by
 * the workshops, which know which learners are a host's; every grant is recorded there.
 */
public interface HostTerminalAccess {

    /** A host, a learner of theirs and that learner's running lab. */
    record Grant(String host, String learner, Lab lab) {}

    /**
     * @param takeOver the host wants to type, not only watch
     * @throws SocketRefusedException when the socket is not a host's, the event not theirs, or the lab not the
     *                                learner's running lab of the event
     */
    Grant grant(String eventId, String learner, String labId, boolean takeOver) throws SocketRefusedException;

    /** The host's view that {@link #grant} let in has closed (so the learner's page can stop saying it is watched). */
    void released(Grant grant);
}
