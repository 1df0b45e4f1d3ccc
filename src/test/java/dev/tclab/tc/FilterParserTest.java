package dev.tclab.tc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class FilterParserTest {

    @Test
    void shouldReadIngressU32RedirectToIfbCapturedFromLabImage() throws Exception {
        List<TcFilter> filters = FilterParser.parse(Fixtures.read("tc/filter-u32-mirred.txt"));
        assertEquals(3, filters.size());
        assertFalse(filters.get(0).isRule(), "the chain header is not a rule");
        assertFalse(filters.get(1).isRule(), "the hash table is not a rule");
        TcFilter rule = filters.get(2);
        assertTrue(rule.isRule());
        assertEquals("u32", rule.kind());
        assertNull(rule.parent());
        assertEquals("all", rule.protocol());
        assertEquals(49152, rule.pref());
        assertEquals("800::800", rule.handle());
        assertEquals(List.of("00000000/00000000 at 0"), rule.matches());
        assertEquals(List.of(new FilterAction(1, "mirred", "egress", "redirect", "ifb0", "stolen")), rule.actions());
        assertEquals("ifb0", rule.redirectDev());
    }

    @Test
    void shouldReadSameRuleFromStatsAndJsonOutput() throws Exception {
        TcFilter text =
                FilterParser.parse(Fixtures.read("tc/filter-u32-mirred.txt")).get(2);
        TcFilter stats = FilterParser.parse(Fixtures.read("tc/filter-u32-mirred-stats.txt"))
                .get(2);
        TcFilter json =
                FilterParser.parse(Fixtures.read("tc/filter-u32-mirred.json")).get(2);
        assertEquals(text, stats);
        assertEquals(text, json);
    }

    @Test
    void shouldReadU32ClassifierWithFlowidAndRepeatedJsonMatchKeys() throws Exception {
        TcFilter text =
                FilterParser.parse(Fixtures.read("tc/filter-u32-htb.txt")).get(2);
        assertEquals("1:", text.parent());
        assertEquals("1:10", text.flowid());
        assertEquals(List.of("0a000002/ffffffff at 16", "00001451/0000ffff at 20"), text.matches());
        // iproute2 6.1 prints "match" twice in one JSON object; both must survive.
        TcFilter json =
                FilterParser.parse(Fixtures.read("tc/filter-u32-htb.json")).get(2);
        assertEquals(text, json);
    }

    @Test
    void shouldReadHandWrittenMatchallRedirect() throws Exception {
        // Hand-written in the text shape of iproute2's matchall output (this kernel has no matchall).
        List<TcFilter> filters = FilterParser.parse(Fixtures.read("tc/handwritten-filter-matchall-mirred.txt"));
        TcFilter rule = filters.get(1);
        assertEquals("matchall", rule.kind());
        assertTrue(rule.isRule());
        assertFalse(filters.get(0).isRule());
        assertEquals("ifb4ens4", rule.redirectDev());
    }

    @Test
    void shouldTreatEmptyOutputAsNoFilters() throws Exception {
        assertEquals(List.of(), FilterParser.parse("\n"));
    }

    @Test
    void shouldRejectErrorTextAndTruncatedJson() {
        TcParseException e = assertThrows(
                TcParseException.class,
                () -> FilterParser.parse("Error: TC classifier not found.\nWe have an error talking to the kernel\n"));
        assertTrue(e.getMessage().contains("expected lines starting with 'filter'"), e.getMessage());
        String json = Fixtures.read("tc/filter-u32-mirred.json");
        assertThrows(TcParseException.class, () -> FilterParser.parse(json.substring(0, 120)));
        assertThrows(TcParseException.class, () -> FilterParser.parse("[{\"protocol\":\"all\"}]"));
    }
}
