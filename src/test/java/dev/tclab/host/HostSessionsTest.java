package dev.tclab.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class HostSessionsTest {

    private static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes();
    private static final Instant T0 = Instant.parse("2026-12-01T09:00:00Z");

    private static HostSessions at(Instant now, byte[] key) {
        return new HostSessions(key, Duration.ofHours(12), Clock.fixed(now, ZoneOffset.UTC));
    }

    @Test
    void aSessionHoldsItsHostAndRoleUntilItExpires() {
        String cookie = at(T0, KEY).issue(new HostAccount("alice", "hash", true));
        assertThat(at(T0.plusSeconds(3600), KEY).verify(cookie))
                .contains(new HostSessions.Session("alice", true, T0.plus(Duration.ofHours(12))));
        assertThat(at(T0.plus(Duration.ofHours(12)), KEY).verify(cookie)).isEmpty();
    }

    @Test
    void aChangedRoleExpiryOrKeyIsNoSession() {
        String cookie = at(T0, KEY).issue(new HostAccount("bob", "hash", false));
        String[] p = cookie.split("\\.");
        assertThat(at(T0, KEY).verify(p[0] + ".a." + p[2] + "." + p[3])).isEmpty();
        assertThat(at(T0, KEY).verify(p[0] + ".h." + (Long.parseLong(p[2]) + 1) + "." + p[3])).isEmpty();
        assertThat(at(T0, KEY).verify("alice.h." + p[2] + "." + p[3])).isEmpty();
        assertThat(at(T0, "another key of thirty-two bytes!".getBytes()).verify(cookie)).isEmpty();
        assertThat(at(T0, KEY).verify("garbage")).isEmpty();
        assertThat(at(T0, KEY).verify(null)).isEmpty();
    }
}
