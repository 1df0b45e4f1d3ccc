package dev.tclab.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ClientsTest {

    @Test
    void shouldCountIpv6AddressesOfOneSlash64AsOneClient() {
        assertEquals("2001:db8:1:2::/64", Clients.of("2001:db8:1:2:abcd::1"));
        assertEquals("192.0.2.7", Clients.of("192.0.2.7"));
        assertEquals("192.0.2.7", Clients.of("::ffff:192.0.2.7"), "an IPv4 client of a dual-stack socket");
        assertEquals("999.1.1.1", Clients.of("999.1.1.1"), "not an address, and not looked up");
        assertEquals("tclab.example", Clients.of("tclab.example"));
    }
}
