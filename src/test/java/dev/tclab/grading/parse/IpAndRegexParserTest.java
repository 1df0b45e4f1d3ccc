package dev.tclab.grading.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tclab.tc.Fixtures;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class IpAndRegexParserTest {

    @Test
    void shouldReadAddressesAndLinkState() throws Exception {
        IpInterface addr = IpParser.parse(Fixtures.read("ip/ip-addr.json")).get(0);
        assertEquals("eth1", addr.name());
        assertEquals(List.of("10.0.0.1/24"), addr.addresses());
        assertEquals("tbf", addr.qdisc());
        assertTrue(addr.up());
        IpInterface link = IpParser.parse(Fixtures.read("ip/ip-link.json")).get(0);
        assertEquals(1500, link.mtu());
        assertEquals(List.of(), link.addresses());
    }

    @Test
    void shouldRejectNonIpJson() {
        assertThrows(OutputParseException.class, () -> IpParser.parse(""));
        assertThrows(OutputParseException.class, () -> IpParser.parse("Device \"eth9\" does not exist."));
        assertThrows(OutputParseException.class, () -> IpParser.parse(Fixtures.read("tc/qdisc-tbf-loaded.json")));
    }

    @Test
    void shouldReturnNamedGroupsOfFirstMatch() {
        Pattern p = Pattern.compile("rate (?<rate>\\d+)(?<unit>[KMG]?bit)");
        assertEquals(
                Optional.of(Map.of("rate", "10", "unit", "Mbit")),
                RegexParser.find(p, Fixtures.read("tc/qdisc-tbf-loaded.txt")));
        assertEquals(Optional.empty(), RegexParser.find(p, "qdisc noqueue 0: root"));
        assertEquals(List.of("rate", "unit"), RegexParser.groupNames(p.pattern()));
    }
}
