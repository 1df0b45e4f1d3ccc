package dev.tclab.workshop;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A workshop event as kept.
 *
 * @param host        the host who created it (owner)
 * @param lessons     lesson slugs in the order the class takes them
 * @param joinCode    what learners type at /join (see {@link JoinCodes})
 * @param opensAt     before this, joining is refused (none: open from creation)
 * @param closesAt    from this on, joining is refused and the time left counts to it (none: open until closed)
 * @param seatCap     most learners who may join
 * @param idleTimeout how long a learner's lab of the event's lessons may sit untouched (see {@link EventLabTerms})
 * @param lifetime    how long such a lab may run, never beyond the event's end nor the server's maximum lifetime
 * @param closedAt    when the host closed it, if they did
 * @param pooledLabs  labs kept ready in the warm pool for its first lesson while it is open (see
 *                    {@link EventPoolReservations})
 */
public record WorkshopEvent(
        String id,
        String host,
        String title,
        List<String> lessons,
        String joinCode,
        Optional<Instant> opensAt,
        Optional<Instant> closesAt,
        int seatCap,
        Duration idleTimeout,
        Duration lifetime,
        Instant createdAt,
        Optional<Instant> closedAt,
        int pooledLabs) {

    public WorkshopEvent {
        lessons = List.copyOf(lessons);
    }

    /** Where the event stands at {@code now}: scheduled (not open yet), open, or closed. */
    public String status(Instant now) {
        if (closedAt.isPresent() || closesAt.map(c -> !now.isBefore(c)).orElse(false)) {
            return "closed";
        }
        return opensAt.map(o -> now.isBefore(o)).orElse(false) ? "scheduled" : "open";
    }

    /** The end that counts for "time left": when it was closed, else its closing time. */
    public Optional<Instant> end() {
        return closedAt.isPresent() ? closedAt : closesAt;
    }
}
