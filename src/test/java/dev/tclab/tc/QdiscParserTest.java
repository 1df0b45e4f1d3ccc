package dev.tclab.tc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class QdiscParserTest {

    @Test
    void shouldReadTbfUnderLoadCapturedFromLabImage() throws Exception {
        // tc -s -j qdisc show dev eth1 during an iperf3 upload through tbf rate 10mbit burst 32kb latency 100ms
        List<Qdisc> qdiscs = QdiscParser.parseJson(Fixtures.read("tc/qdisc-tbf-backlog.json"), "eth1");
        assertEquals(1, qdiscs.size());
        Qdisc tbf = qdiscs.get(0);
        assertEquals("tbf", tbf.kind());
        assertEquals("8002:", tbf.handle());
        assertTrue(tbf.isRoot());
        assertEquals("eth1", tbf.dev());
        assertEquals(1250000, ((Number) tbf.options().get("rate")).longValue(), "10mbit is 1 250 000 bytes/s");
        assertEquals(32767, ((Number) tbf.options().get("burst")).longValue());
        assertEquals(100000, ((Number) tbf.options().get("lat")).longValue());
        assertEquals(new QdiscStats(10211336, 24716, 0, 14217, 0, 124148, 82), tbf.stats());
        assertTrue(tbf.tins().isEmpty());
    }

    @Test
    void shouldReadHtbTreeWithChildQdiscParents() throws Exception {
        List<Qdisc> qdiscs = QdiscParser.parseJson(Fixtures.read("tc/qdisc-htb.json"));
        assertEquals(List.of("htb", "tbf"), qdiscs.stream().map(Qdisc::kind).toList());
        assertEquals("root", qdiscs.get(0).parent());
        assertEquals("1:20", qdiscs.get(1).parent());
        assertEquals("0x20", qdiscs.get(0).options().get("default"));
    }

    @Test
    void shouldNameTheIngressHookAsParentAndKeepDevFromFullListing() throws Exception {
        List<Qdisc> ingress = QdiscParser.parseJson(Fixtures.read("tc/qdisc-ingress.json"));
        assertEquals("noqueue", ingress.get(0).kind());
        assertEquals("ingress", ingress.get(1).parent());
        assertTrue(ingress.get(1).isIngress());
        assertEquals(4683254, ingress.get(1).stats().bytes());

        List<Qdisc> all = QdiscParser.parseJson(Fixtures.read("tc/qdisc-all.json"));
        assertEquals(
                List.of("lo", "eth1", "eth1", "ifb0"),
                all.stream().map(Qdisc::dev).toList());
        assertEquals(5, all.get(3).stats().drops());
    }

    @Test
    void shouldReadCakeTinsFromHandWrittenJson() throws Exception {
        // Hand-written in iproute2's q_cake.c JSON shape, with the numbers of the CAKE run in seed 002
        // (this kernel has no cake, so no real capture is possible here).
        Qdisc cake = QdiscParser.parseJson(Fixtures.read("tc/handwritten-qdisc-cake.json"))
                .get(0);
        assertEquals("cake", cake.kind());
        assertEquals(3, cake.tins().size());
        CakeTin bestEffort = cake.tins().get(1);
        assertEquals(220, bestEffort.drops());
        assertEquals(1712, bestEffort.avgDelayUs());
        assertEquals(562500, bestEffort.thresholdRateBytesPerSecond());
        assertEquals(36120L, ((Number) cake.xstats().get("memory_used")).longValue());
        assertEquals("diffserv3", cake.options().get("diffserv"));
    }

    @Test
    void shouldKeepFqCodelExtraStatsApartFromCommonCounters() throws Exception {
        // Hand-written in iproute2's JSON shape (this kernel has no fq_codel or sfq).
        List<Qdisc> qdiscs = QdiscParser.parseJson(Fixtures.read("tc/handwritten-qdisc-fq_codel-sfq.json"));
        Qdisc fqCodel = qdiscs.get(1);
        assertEquals(2, fqCodel.stats().drops());
        assertEquals(1, fqCodel.stats().qlen());
        assertEquals(1514L, ((Number) fqCodel.xstats().get("maxpacket")).longValue());
        assertTrue(!fqCodel.xstats().containsKey("drops"));
        assertEquals("sfq", qdiscs.get(2).kind());
    }

    @Test
    void shouldRejectEmptyOutput() {
        TcParseException e = assertThrows(TcParseException.class, () -> QdiscParser.parseJson(""));
        assertTrue(e.getMessage().contains("empty output"), e.getMessage());
    }

    @Test
    void shouldRejectTruncatedJson() {
        String json = Fixtures.read("tc/qdisc-tbf-loaded.json");
        TcParseException e =
                assertThrows(TcParseException.class, () -> QdiscParser.parseJson(json.substring(0, json.length() / 2)));
        assertTrue(
                e.getMessage().startsWith("expected the JSON array printed by `tc -s -j qdisc show`"), e.getMessage());
    }

    @Test
    void shouldQuoteTcErrorTextInsteadOfJson() {
        // What tc prints when asked for a qdisc this kernel lacks.
        TcParseException e =
                assertThrows(TcParseException.class, () -> QdiscParser.parseJson(Fixtures.read("tc/cake-unknown.txt")));
        assertTrue(e.getMessage().contains("Specified qdisc kind is unknown"), e.getMessage());
    }

    @Test
    void shouldRejectJsonOfAnotherKind() {
        // ip -j addr output is valid JSON but not a qdisc list.
        TcParseException e =
                assertThrows(TcParseException.class, () -> QdiscParser.parseJson(Fixtures.read("ip/ip-addr.json")));
        assertTrue(e.getMessage().contains("'kind' and 'handle'"), e.getMessage());
        assertThrows(TcParseException.class, () -> QdiscParser.parseJson("{\"kind\":\"tbf\"}"));
    }
}
