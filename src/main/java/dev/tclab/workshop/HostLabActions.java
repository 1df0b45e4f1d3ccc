package dev.tclab.workshop;

import dev.tclab.host.CurrentHost;
import dev.tclab.http.Quote;
import dev.tclab.lab.Lab;
import dev.tclab.lab.LabNotFoundException;
import dev.tclab.lab.LabService;
import dev.tclab.lab.QuotaExceededException;
import dev.tclab.lab.ServerFullException;
import dev.tclab.lab.StartQuota;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.topology.TopologyException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import java.util.List;

/**
 * What a host does to a workshop's learners and their labs: close the workshop, stop, reset or extend a learner's
 * labs of its lessons, message one learner. Each is recorded as a host action; a refusal says what to do instead.
 * Calls block (the lab engine, the database).
 */
@ApplicationScoped
public class HostLabActions {

    private final WorkshopService workshops;
    private final LabService labs;
    private final StartQuota quota;
    private final Event<LearnerNotice> notices;

    public HostLabActions(WorkshopService workshops, LabService labs, StartQuota quota, Event<LearnerNotice> notices) {
        this.workshops = workshops;
        this.labs = labs;
        this.quota = quota;
        this.notices = notices;
    }

    /** Closes the event (nobody joins any more) and stops its learners' labs of the event's lessons. */
    public void close(CurrentHost.Host host, WorkshopEvent event) {
        workshops.close(event);
        for (Seat seat : workshops.seats(event.id())) {
            for (Lab lab : liveLabs(event, seat.learnerId())) {
                stopLab(
                        host,
                        event,
                        seat,
                        lab,
                        "close",
                        "Your host closed the workshop \"" + event.title() + "\", so its labs stopped. Your steps and"
                                + " answers are kept: start the lab again to carry on alone.");
            }
        }
    }

    /** Stops the learner's live labs of the event's lessons. */
    public void stop(CurrentHost.Host host, WorkshopEvent event, String learner) {
        Seat seat = seat(event, learner);
        for (Lab lab : runningLabs(event, seat)) {
            stopLab(host, event, seat, lab, "stop", "Your host stopped your lab. Start it again when you are ready.");
        }
    }

    /**
     * Replaces each of the learner's live labs of the event's lessons with a fresh one of the same lesson, admitted
     * under the same quota as the one it replaces; the learner's page follows the new lab by itself. Their passed
     * steps and answers stay (they are the learner's, not the lab's).
     */
    public void reset(CurrentHost.Host host, WorkshopEvent event, String learner)
            throws EngineUnavailableException, ServerFullException, TopologyException {
        Seat seat = seat(event, learner);
        for (Lab lab : runningLabs(event, seat)) {
            Lab fresh;
            try {
                fresh = labs.replace(
                                lab.id(),
                                learner,
                                "Your host reset your lab: a fresh one is starting (your passed steps stay passed).",
                                quota.replacing(lab))
                        .lab();
            } catch (LabNotFoundException e) {
                continue;
            } catch (QuotaExceededException e) {
                throw new WorkshopRefusal(
                        WorkshopRefusal.Kind.CONFLICT,
                        "The lab was stopped, but no fresh one could start for " + seat.displayName() + ": "
                                + e.getMessage());
            }
            record(
                    host,
                    event,
                    learner,
                    "reset",
                    seat.displayName() + "'s lab " + lab.id() + " (" + lab.lesson() + ") replaced by " + fresh.id());
        }
    }

    /**
     * Restarts the idle clock of the learner's running labs, as if they had just typed: the idle timeout counts
     * again from now. (The lab's maximum lifetime still applies.)
     */
    public void extend(CurrentHost.Host host, WorkshopEvent event, String learner) {
        Seat seat = seat(event, learner);
        for (Lab lab : runningLabs(event, seat)) {
            lab.touch(workshops.now());
            notices.fire(new LearnerNotice(
                    learner,
                    LearnerNotice.Kind.EXTENDED,
                    lab.id(),
                    lab.lesson(),
                    "Your host gave your lab more time: its idle clock starts again now."));
            record(
                    host,
                    event,
                    learner,
                    "extend",
                    seat.displayName() + "'s lab " + lab.id() + " (" + lab.lesson() + "): idle clock restarted");
        }
    }

    /**
     * A message to one learner: it shows on their open pages at once and on every page they open until they mark it
     * read, and is kept in the action log.
     */
    public void message(CurrentHost.Host host, WorkshopEvent event, String learner, String draft) {
        Seat seat = seat(event, learner);
        String text = workshops.checkedMessage(draft);
        workshops.message(event, seat, text);
        record(host, event, learner, "message", "to " + seat.displayName() + ": " + text);
    }

    /** The learner's seat in the event; refused when they did not join it. */
    Seat seat(WorkshopEvent event, String learner) {
        return workshops.seats(event.id()).stream()
                .filter(s -> s.learnerId().equals(learner))
                .findFirst()
                .orElseThrow(() -> new WorkshopRefusal(
                        WorkshopRefusal.Kind.NOT_FOUND, "No learner " + Quote.of(learner) + " joined this workshop."));
    }

    /** The learner's live labs of the event's lessons; refused when there is none to act on. */
    private List<Lab> runningLabs(WorkshopEvent event, Seat seat) {
        List<Lab> live = liveLabs(event, seat.learnerId());
        if (live.isEmpty()) {
            throw new WorkshopRefusal(WorkshopRefusal.Kind.CONFLICT, seat.displayName() + " has no lab running.");
        }
        return live;
    }

    private List<Lab> liveLabs(WorkshopEvent event, String learner) {
        return labs.labsOf(learner).stream()
                .filter(l -> l.phase().live())
                .filter(l -> event.lessons().contains(l.lesson()))
                .toList();
    }

    private void stopLab(CurrentHost.Host host, WorkshopEvent event, Seat seat, Lab lab, String action, String why) {
        try {
            labs.stop(lab.id(), seat.learnerId(), why);
        } catch (LabNotFoundException e) {
            return;
        } catch (EngineUnavailableException e) {
            throw new WorkshopRefusal(
                    WorkshopRefusal.Kind.ENGINE_DOWN,
                    "The lab engine does not answer, so the lab was not stopped; try again in a moment.");
        }
        record(
                host,
                event,
                seat.learnerId(),
                action,
                seat.displayName() + "'s lab " + lab.id() + " (" + lab.lesson() + ")");
    }

    private void record(CurrentHost.Host host, WorkshopEvent event, String learner, String action, String detail) {
        workshops.record(event, new HostAction(host.name(), learner, action, detail, workshops.now()));
    }
}
