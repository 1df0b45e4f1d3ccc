package dev.tclab.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HostSessionsTest {

    private static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes();
    private static final Instant T0 = Instant.parse("2026-12-01T09:00:00Z");

    /** Open sessions kept as the database keeps them: id, host, expiry. */
    private static final class Kept implements HostSessionStore {
        final Map<String, Map.Entry<String, Instant>> open = new HashMap<>();

        @Override
        public void open(String sessionId, String host, Instant expires) {
            open.put(sessionId, Map.entry(host, expires));
        }

        @Override
        public boolean isOpen(String sessionId, String host, Instant now) {
            Map.Entry<String, Instant> kept = open.get(sessionId);
            return kept != null && kept.getKey().equals(host) && now.isBefore(kept.getValue());
        }

        @Override
        public void end(String sessionId) {
            open.remove(sessionId);
        }
    }

    private final Kept kept = new Kept();

    private HostSessions at(Instant now, byte[] key) {
        return new HostSessions(key, Duration.ofHours(12), Clock.fixed(now, ZoneOffset.UTC), kept);
    }

    @Test
    void aSessionHoldsItsHostAndRoleUntilItExpires() {
        String cookie = at(T0, KEY).issue(new HostAccount("alice", "hash", true));
        HostSessions.Session session =
                at(T0.plusSeconds(3600), KEY).verify(cookie).orElseThrow();
        assertThat(session.name()).isEqualTo("alice");
        assertThat(session.admin()).isTrue();
        assertThat(session.expires()).isEqualTo(T0.plus(Duration.ofHours(12)));
        assertThat(at(T0.plusSeconds(3600), KEY).isOpen(session)).isTrue();
        assertThat(at(T0.plus(Duration.ofHours(12)), KEY).verify(cookie)).isEmpty();
        assertThat(at(T0.plus(Duration.ofHours(12)), KEY).isOpen(session)).isFalse();
    }

    @Test
    void anEndedSessionIsNoLongerOpenWhileOthersStay() {
        String mine = at(T0, KEY).issue(new HostAccount("alice", "hash", false));
        String other = at(T0, KEY).issue(new HostAccount("alice", "hash", false));
        HostSessions sessions = at(T0.plusSeconds(60), KEY);
        HostSessions.Session session = sessions.verify(mine).orElseThrow();
        sessions.end(session);
        assertThat(sessions.verify(mine)).as("still signed and unexpired").isPresent();
        assertThat(sessions.isOpen(session)).isFalse();
        assertThat(sessions.isOpen(sessions.verify(other).orElseThrow())).isTrue();
    }

    @Test
    void aChangedRoleExpiryOrKeyIsNoSession() {
        String cookie = at(T0, KEY).issue(new HostAccount("bob", "hash", false));
        String[] p = cookie.split("\\.");
        assertThat(at(T0, KEY).verify(cookie)).isPresent();
        assertThat(at(T0, KEY).verify(p[0] + ".a." + p[2] + "." + p[3] + "." + p[4]))
                .isEmpty();
        assertThat(at(T0, KEY).verify(p[0] + ".h." + (Long.parseLong(p[2]) + 1) + "." + p[3] + "." + p[4]))
                .isEmpty();
        assertThat(at(T0, KEY).verify("alice.h." + p[2] + "." + p[3] + "." + p[4]))
                .isEmpty();
        assertThat(at(T0, KEY).verify(p[0] + ".h." + p[2] + ".AAAAAAAAAAAAAAAAAAAAAAAA." + p[4]))
                .isEmpty();
        assertThat(at(T0, "another key of thirty-two bytes!".getBytes()).verify(cookie))
                .isEmpty();
        assertThat(at(T0, KEY).verify("garbage")).isEmpty();
        assertThat(at(T0, KEY).verify(null)).isEmpty();
    }
}
