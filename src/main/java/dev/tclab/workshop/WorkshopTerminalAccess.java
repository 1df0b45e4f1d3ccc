package dev.tclab.workshop;

import dev.tclab.host.CurrentHost;
import dev.tclab.http.SocketCloseCodes;
import dev.tclab.http.SocketRefusedException;
import dev.tclab.lab.Lab;
import dev.tclab.lab.LabNotFoundException;
import dev.tclab.lab.LabService;
import dev.tclab.terminal.HostTerminalAccess;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A host may watch or take over the terminal of a learner seated in one of their events (an admin: any event),
 * in that learner's running lab of the event's lessons. Every grant is a recorded host action, and the learner's
 * pages are told while at least one host view of their lab is open.
 */
@ApplicationScoped
public class WorkshopTerminalAccess implements HostTerminalAccess {

    private final CurrentHost host;
    private final WorkshopService workshops;
    private final LabService labs;
    private final Event<LearnerNotice> notices;
    /** Open host views per lab: the learner hears when the first opens and when the last closes. */
    private final Map<String, Integer> views = new ConcurrentHashMap<>();

    public WorkshopTerminalAccess(
            CurrentHost host, WorkshopService workshops, LabService labs, Event<LearnerNotice> notices) {
        this.host = host;
        this.notices = notices;
        this.workshops = workshops;
        this.labs = labs;
    }

    @Override
    public Grant grant(String eventId, String learner, String labId, boolean takeOver) throws SocketRefusedException {
        CurrentHost.Host me = host.get()
                .orElseThrow(() -> new SocketRefusedException(
                        SocketCloseCodes.LAB_NOT_FOUND, "Sign in as a host to see a learner's terminal."));
        WorkshopEvent event;
        try {
            event = workshops.eventFor(me, eventId);
        } catch (WorkshopRefusal e) {
            throw new SocketRefusedException(SocketCloseCodes.LAB_NOT_FOUND, e.getMessage());
        }
        Seat seat = workshops.seats(event.id()).stream()
                .filter(s -> s.learnerId().equals(learner))
                .findFirst()
                .orElseThrow(() -> new SocketRefusedException(
                        SocketCloseCodes.LAB_NOT_FOUND, "No learner " + learner + " joined this workshop."));
        Lab lab;
        try {
            lab = labs.getRunning(labId, learner);
        } catch (LabNotFoundException e) {
            throw new SocketRefusedException(
                    SocketCloseCodes.LAB_NOT_FOUND, seat.displayName() + "'s lab is not running.");
        }
        if (!event.lessons().contains(lab.lesson())) {
            throw new SocketRefusedException(
                    SocketCloseCodes.LAB_NOT_FOUND, "That lab is not one of this workshop's lessons.");
        }
        workshops.record(
                event,
                new HostAction(
                        me.name(),
                        learner,
                        takeOver ? "take over terminal" : "shadow terminal",
                        seat.displayName() + "'s lab " + lab.id() + " (" + lab.lesson() + ")",
                        workshops.now()));
        if (views.merge(lab.id(), 1, Integer::sum) == 1) {
            notices.fire(new LearnerNotice(
                    learner,
                    LearnerNotice.Kind.WATCHED,
                    lab.id(),
                    lab.lesson(),
                    "Your host is watching your terminal."));
        }
        return new Grant(me.name(), learner, lab);
    }

    @Override
    public void released(Grant grant) {
        String labId = grant.lab().id();
        if (views.computeIfPresent(labId, (id, open) -> open == 1 ? null : open - 1) == null) {
            notices.fire(new LearnerNotice(
                    grant.learner(),
                    LearnerNotice.Kind.UNWATCHED,
                    labId,
                    grant.lab().lesson(),
                    "Your host stopped watching your terminal."));
        }
    }
}
