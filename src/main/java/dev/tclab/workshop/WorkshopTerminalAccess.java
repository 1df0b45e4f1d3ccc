package dev.tclab.workshop;

import dev.tclab.host.CurrentHost;
import dev.tclab.lab.Lab;
import dev.tclab.lab.LabNotFoundException;
import dev.tclab.lab.LabService;
import dev.tclab.terminal.HostTerminalAccess;
import dev.tclab.http.SocketCloseCodes;
import dev.tclab.http.SocketRefusedException;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;

/**
 * A host may watch or take over the terminal of a learner seated in one of their events (an admin: any event),
 * in that learner's running lab of the event's lessons. Every grant is a recorded host action.
 */
@ApplicationScoped
public class WorkshopTerminalAccess implements HostTerminalAccess {

    private final CurrentHost host;
    private final WorkshopService workshops;
    private final LabService labs;

    public WorkshopTerminalAccess(CurrentHost host, WorkshopService workshops, LabService labs) {
        this.host = host;
        this.workshops = workshops;
        this.labs = labs;
    }

    @Override
    public Grant grant(String eventId, String learner, String labId, boolean takeOver) throws SocketRefusedException {
        CurrentHost.Host me = host.get().orElseThrow(() -> new SocketRefusedException(SocketCloseCodes.LAB_NOT_FOUND,
                "Sign in as a host to see a learner's terminal."));
        WorkshopEvent event;
        try {
            event = workshops.eventFor(me, eventId);
        } catch (WorkshopRefusal e) {
            throw new SocketRefusedException(SocketCloseCodes.LAB_NOT_FOUND, e.getMessage());
        }
        Seat seat = workshops.seats(event.id()).stream().filter(s -> s.learnerId().equals(learner)).findFirst()
                .orElseThrow(() -> new SocketRefusedException(SocketCloseCodes.LAB_NOT_FOUND,
                        "No learner " + learner + " joined this event."));
        Lab lab;
        try {
            lab = labs.getRunning(labId, learner);
        } catch (LabNotFoundException e) {
            throw new SocketRefusedException(SocketCloseCodes.LAB_NOT_FOUND, seat.displayName() + "'s lab is not running.");
        }
        if (!event.lessons().contains(lab.lesson())) {
            throw new SocketRefusedException(SocketCloseCodes.LAB_NOT_FOUND, "That lab is not one of this event's lessons.");
        }
        workshops.record(event, new HostAction(me.name(), learner, takeOver ? "take over terminal" : "shadow terminal",
                seat.displayName() + "'s lab " + lab.id() + " (" + lab.lesson() + ")", Instant.now()));
        return new Grant(me.name(), learner, lab);
    }
}
