package dev.tclab.workshop;

import dev.tclab.lab.PoolReservations;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;

/**
 * The labs workshops keep ready in the warm pool: each event's number for its first lesson, from a quarter of an
 * hour before it opens (so the first learners find them started) until it closes.
 */
@ApplicationScoped
public class EventPoolReservations implements PoolReservations {

    static final Duration AHEAD = Duration.ofMinutes(15);

    private final WorkshopStore store;

    private final InstantSource clock;

    public EventPoolReservations(WorkshopStore store, InstantSource clock) {
        this.store = store;
        this.clock = clock;
    }

    @Override
    public Map<String, Integer> reservedLabs() {
        Instant now = clock.instant();
        Map<String, Integer> reserved = new HashMap<>();
        for (WorkshopEvent event : store.events(null)) {
            if (event.pooledLabs() > 0
                    && "open".equals(event.status(now.plus(AHEAD)))
                    && !"closed".equals(event.status(now))) {
                reserved.merge(event.lessons().get(0), event.pooledLabs(), Integer::sum);
            }
        }
        return reserved;
    }
}
