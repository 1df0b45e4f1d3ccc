package dev.tclab.workshop;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class EventPoolReservationsTest {

    private static final Instant NOW = Instant.now();

    private static WorkshopEvent event(String firstLesson, Instant opensAt, Instant closedAt, int pooled) {
        return new WorkshopEvent(
                "e-" + firstLesson + pooled,
                "alice",
                "Class",
                List.of(firstLesson, "htb-rate-accuracy"),
                "ABCDEF",
                Optional.ofNullable(opensAt),
                Optional.empty(),
                30,
                Duration.ofMinutes(45),
                Duration.ofHours(4),
                NOW.minusSeconds(3600),
                Optional.ofNullable(closedAt),
                pooled);
    }

    /** A store that only lists events: the one call the reservations make. */
    private static WorkshopStore listing(List<WorkshopEvent> events) {
        return (WorkshopStore) Proxy.newProxyInstance(
                WorkshopStore.class.getClassLoader(), new Class<?>[] {WorkshopStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("events") && args[0] == null) {
                        return events;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void shouldReserveTheFirstLessonsLabsOfEventsOpenOrOpeningWithinAQuarterOfAnHour() {
        EventPoolReservations reservations = new EventPoolReservations(
                listing(List.of(
                        event("tbf-basics", null, null, 5),
                        event("tbf-basics", NOW.plus(Duration.ofMinutes(10)), null, 3),
                        event("bufferbloat-upload", NOW.plus(Duration.ofMinutes(40)), null, 7),
                        event("bufferbloat-download", null, NOW.minusSeconds(60), 9),
                        event("htb-rate-accuracy", null, null, 0))),
                InstantSource.fixed(NOW));
        assertThat(reservations.reservedLabs()).containsExactlyEntriesOf(Map.of("tbf-basics", 8));
    }
}
