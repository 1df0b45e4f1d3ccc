package dev.tclab.workshop;

import dev.tclab.lab.LabTerms;
import dev.tclab.lab.LabTermsSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;

/**
 * A learner seated in an event gets the event's idle timeout and lifetime for labs of the event's lessons, ending
 * no later than the event's closing time. Labs of other lessons, and labs started before the learner joined or
 * after the event closed, keep the server's terms: a learner whose workshop closed carries on alone, as any
 * learner of the server does.
 */
@ApplicationScoped
public class EventLabTerms implements LabTermsSource {

    private static final DateTimeFormatter CLOCK =
            DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);

    private final WorkshopService workshops;

    public EventLabTerms(WorkshopService workshops) {
        this.workshops = workshops;
    }

    @Override
    public Optional<LabTerms> termsFor(String owner, String lesson, Instant createdAt) {
        return workshops
                .seatOf(owner)
                .filter(seat -> !seat.joinedAt().isAfter(createdAt))
                .flatMap(seat -> workshops.find(seat.eventId()))
                .filter(event -> event.lessons().contains(lesson)
                        && !event.status(createdAt).equals("closed"))
                .map(event -> of(event, createdAt));
    }

    static LabTerms of(WorkshopEvent event, Instant createdAt) {
        Instant lifetimeEnd = createdAt.plus(event.lifetime());
        Optional<Instant> closes = event.end().filter(end -> end.isBefore(lifetimeEnd));
        if (closes.isPresent()) {
            return new LabTerms(
                    event.idleTimeout(),
                    closes.get(),
                    "Stopped: the workshop \"" + event.title() + "\" ended at " + CLOCK.format(closes.get())
                            + " UTC. Your steps and answers are kept: start the lab again to carry on alone.");
        }
        return new LabTerms(
                event.idleTimeout(),
                lifetimeEnd,
                "Stopped after the workshop's lab lifetime of "
                        + event.lifetime().toMinutes()
                        + " minutes. Start it again from the lesson if the workshop goes on.");
    }
}
