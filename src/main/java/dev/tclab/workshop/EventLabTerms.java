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
 * after the event closed, keep the server's terms. A learner whose workshop closed starts no more labs of its
 * lessons.
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

    @Override
    public Optional<String> startRefusal(String owner, String lesson, Instant now) {
        return workshops
                .seatOf(owner)
                .flatMap(seat -> workshops.find(seat.eventId()))
                .filter(event ->
                        event.lessons().contains(lesson) && event.status(now).equals("closed"))
                .map(event -> "Your workshop \"" + event.title() + "\" is closed, so its labs do not start any more."
                        + " Ask your host to reopen it if the class goes on.");
    }

    static LabTerms of(WorkshopEvent event, Instant createdAt) {
        Instant lifetimeEnd = createdAt.plus(event.lifetime());
        Optional<Instant> closes = event.end().filter(end -> end.isBefore(lifetimeEnd));
        if (closes.isPresent()) {
            return new LabTerms(
                    event.idleTimeout(),
                    closes.get(),
                    "Stopped: the workshop \"" + event.title() + "\" ended at " + CLOCK.format(closes.get())
                            + " UTC. The lesson stays open to you at /.");
        }
        return new LabTerms(
                event.idleTimeout(),
                lifetimeEnd,
                "Stopped after the workshop's lab lifetime of "
                        + event.lifetime().toMinutes()
                        + " minutes. Start it again from the lesson if the workshop goes on.");
    }
}
