package dev.tclab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The sampler's stream, split at arbitrary points, becomes samples with rates from counter deltas. */
class SampleParserTest {

    private static final String MARK = SamplerScript.MARK;
    private static final String LINKS_ETH1 = "eth1 0 0 0 0 0 0";

    private static SampleAssembler assembler(List<RawSample> rounds) {
        return new SampleAssembler(rounds::add, NodeSampler.MAX_ROUND_BYTES, () -> {
            throw new AssertionError("no test round is that big");
        });
    }

    @Test
    void shouldComputeRatesFromTwoRoundsSplitAnywhere() throws IOException {
        List<RawSample> rounds = new ArrayList<>();
        SampleAssembler assembler = assembler(rounds);
        String first = round(
                1_000_000_000L,
                qdisc(1_000_000, 1000, 0, 5),
                fixture("class-htb.txt"),
                fixture("filter-u32-mirred.txt"));
        // One second later: 1.25 MB more (10 Mbit/s), 1000 packets, 3 drops, 10 overlimits.
        String second = round(2_000_000_000L, qdisc(2_250_000, 2000, 3, 15), fixture("class-htb.txt"), "");
        byte[] stream = (first + second).getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < stream.length; i += 7) {
            assembler.accept(java.util.Arrays.copyOfRange(stream, i, Math.min(stream.length, i + 7)));
        }
        assertEquals(2, rounds.size());

        SampleParser parser = new SampleParser("client", List.of());
        StatsFrames.NodeSample one = parser.parse(rounds.get(0));
        StatsFrames.NodeSample two = parser.parse(rounds.get(1));

        StatsFrames.DeviceStats dev = one.devices().get(0);
        assertEquals("eth1", dev.dev());
        assertNull(dev.qdiscs().get(0).rates(), "no rate before a second sample");
        assertEquals(4, dev.classes().size(), "the four HTB classes of the fixture");
        assertEquals("ifb0", dev.filters().get(0).redirectDev());
        assertEquals("egress", dev.filters().get(0).hook());

        StatsFrames.QdiscView tbf = two.devices().get(0).qdiscs().get(0);
        assertEquals(10_000_000.0, tbf.rates().bitsPerSecond(), 1e-6);
        assertEquals(1000.0, tbf.rates().packetsPerSecond(), 1e-9);
        assertEquals(3.0, tbf.rates().dropsPerSecond(), 1e-9);
        assertEquals(10.0, tbf.rates().overlimitsPerSecond(), 1e-9);
        assertEquals(2_250_000, tbf.counters().bytes());
        assertEquals(0.0, two.devices().get(0).classes().get(0).rates().bitsPerSecond(), 1e-9);
        assertEquals(2000, two.time());
    }

    @Test
    void shouldShowOutputItCannotParseRawAndKeepTheRest() {
        List<RawSample> rounds = new ArrayList<>();
        SampleAssembler assembler = assembler(rounds);
        assembler.accept(round(5L, "Cannot find device \"eth9\"\n", "Error: Cannot find device \"eth9\".\n", "")
                .getBytes(StandardCharsets.UTF_8));
        StatsFrames.DeviceStats dev = new SampleParser("client", List.of())
                .parse(rounds.get(0))
                .devices()
                .get(0);
        assertTrue(dev.qdiscs().isEmpty());
        assertEquals(
                List.of("qdisc", "class"),
                dev.unparsed().stream().map(StatsFrames.Unparsed::what).toList());
        assertTrue(dev.unparsed().get(0).raw().contains("Cannot find device"));
    }

    @Test
    void shouldDropARateWhenTheQdiscWasReplaced() {
        List<RawSample> rounds = new ArrayList<>();
        SampleAssembler assembler = assembler(rounds);
        assembler.accept((round(1_000_000_000L, qdisc(5_000_000, 10, 0, 0), "", "")
                        + round(2_000_000_000L, qdisc(100, 1, 0, 0), "", ""))
                .getBytes(StandardCharsets.UTF_8));
        SampleParser parser = new SampleParser("client", List.of());
        parser.parse(rounds.get(0));
        assertNull(parser.parse(rounds.get(1)).devices().get(0).qdiscs().get(0).rates());
    }

    @Test
    void shouldListFiltersAttachedToClassesAndInnerQdiscsUnderTheirParent() throws IOException {
        List<RawSample> rounds = new ArrayList<>();
        assembler(rounds).accept(fixture("sampler-round-htb-nested.txt").getBytes(StandardCharsets.UTF_8));
        StatsFrames.DeviceStats v0 = new SampleParser("client", List.of())
                .parse(rounds.get(0)).devices().stream()
                        .filter(d -> d.dev().equals("v0"))
                        .findFirst()
                        .orElseThrow();

        List<String> filters = v0.filters().stream()
                .map(f -> f.parent() + " pref " + f.pref() + " " + f.handle() + " -> " + f.flowid())
                .toList();
        assertEquals(
                List.of("1: pref 1 800::800 -> 1:1", "1:1 pref 2 801::800 -> 1:10", "10: pref 1 800::800 -> 10:1"),
                filters,
                "the root's filter, the class's and the inner qdisc's (same u32 handle, other qdisc)");
        assertTrue(v0.unparsed().isEmpty(), () -> "all parsed, found " + v0.unparsed());
        assertEquals(4, v0.classes().size());
    }

    @Test
    void shouldGiveEveryInterfaceItsCountersAndDetailOnlyThoseWithAQdisc() throws IOException {
        List<RawSample> rounds = new ArrayList<>();
        assembler(rounds).accept(fixture("sampler-round-htb-nested.txt").getBytes(StandardCharsets.UTF_8));
        SampleParser parser = new SampleParser("client", List.of());
        StatsFrames.NodeSample sample = parser.parse(rounds.get(0));

        assertEquals(
                List.of("v0", "v1", "v2", "v3"),
                sample.devices().stream()
                        .map(StatsFrames.DeviceStats::dev)
                        .sorted()
                        .toList(),
                "every interface but lo");
        for (StatsFrames.DeviceStats dev : sample.devices()) {
            assertTrue(dev.link() != null && dev.unparsed().isEmpty(), () -> dev.dev() + ": " + dev.unparsed());
            assertNull(dev.link().rates(), "no rate before a second round");
        }
        StatsFrames.DeviceStats bare = sample.devices().stream()
                .filter(d -> d.dev().equals("v3"))
                .findFirst()
                .orElseThrow();
        assertEquals(
                List.of("noqueue"),
                bare.qdiscs().stream().map(StatsFrames.QdiscView::kind).toList());
        assertTrue(bare.classes().isEmpty() && bare.filters().isEmpty());
        assertEquals(
                List.of("v0", "v1"),
                parser.devicesToDetail().stream().sorted().toList(),
                "next round details the interfaces with a qdisc of their own, not bare noqueue ones");
    }

    @Test
    void shouldKeepOnlyTheInterfacesTheLabNames() throws IOException {
        List<RawSample> rounds = new ArrayList<>();
        assembler(rounds).accept(fixture("sampler-round-htb-nested.txt").getBytes(StandardCharsets.UTF_8));
        SampleParser parser = new SampleParser("gw", List.of("v1", "v*3"));
        List<String> devices = parser.parse(rounds.get(0)).devices().stream()
                .map(StatsFrames.DeviceStats::dev)
                .toList();
        assertEquals(List.of("v1", "v3"), devices.stream().sorted().toList());
        assertEquals(List.of("v1"), parser.devicesToDetail());
    }

    @Test
    void shouldComputeInterfaceRatesFromItsCounters() {
        List<RawSample> rounds = new ArrayList<>();
        SampleAssembler assembler = assembler(rounds);
        assembler.accept((linksRound(1_000_000_000L, 1_000, 2_000) + linksRound(3_000_000_000L, 251_000, 1_002_000))
                .getBytes(StandardCharsets.UTF_8));
        SampleParser parser = new SampleParser("gw", List.of());
        parser.parse(rounds.get(0));
        StatsFrames.LinkRates rates =
                parser.parse(rounds.get(1)).devices().get(0).link().rates();
        assertEquals(1_000_000.0, rates.rxBitsPerSecond(), 1e-6, "250 kB in 2 s");
        assertEquals(4_000_000.0, rates.txBitsPerSecond(), 1e-6, "1 MB in 2 s");
    }

    private static String linksRound(long nanos, long rxBytes, long txBytes) {
        return MARK + "sample " + nanos / 1000 + "\n" + MARK + "links\neth2 " + rxBytes + " 1 0 " + txBytes + " 1 0\n"
                + MARK + "qdiscs\n[{\"kind\":\"noqueue\",\"handle\":\"0:\",\"dev\":\"eth2\",\"root\":true}]\n" + MARK
                + "end\n";
    }

    @Test
    void shouldListAU32RuleSharedByTwoParentsOfOneQdiscOnce() {
        // u32 rules of one qdisc with the same pref share hash tables, so tc lists them under both parents.
        String root =
                "filter parent 1: protocol ip pref 1 u32 chain 0 fh 800::800 order 2048 key ht 800 bkt 0 *flowid 1:1\n"
                        + "  match 00000016/0000ffff at 20\n";
        String atClass = root.replace("filter parent 1: ", "filter ");
        List<RawSample> rounds = new ArrayList<>();
        assembler(rounds)
                .accept((MARK + "sample 1\n" + MARK + "links\n" + LINKS_ETH1 + "\n"
                                + MARK + "qdiscs\n[]\n" + MARK + "dev eth1\n" + MARK + "class\n" + MARK + "filter\n"
                                + root
                                + MARK + "filter 1:1\n" + atClass + MARK + "ingress\n" + MARK + "end\n")
                        .getBytes(StandardCharsets.UTF_8));
        List<StatsFrames.FilterView> filters = new SampleParser("client", List.of())
                .parse(rounds.get(0))
                .devices()
                .get(0)
                .filters();
        assertEquals(1, filters.size());
        assertEquals("1:", filters.get(0).parent());
    }

    /** A round of eth1 as the sampler prints it when asked to detail eth1. */
    private static String round(long nanos, String qdiscJson, String classText, String filterText) {
        return MARK + "sample " + nanos / 1000 + "\n" + MARK + "links\n" + LINKS_ETH1 + "\n" + MARK + "qdiscs\n"
                + qdiscJson + "\n" + MARK + "dev eth1\n" + MARK + "class\n" + classText + MARK + "filter\n"
                + filterText + MARK + "ingress\n" + MARK + "end\n";
    }

    private static String qdisc(long bytes, long packets, long drops, long overlimits) {
        return "[{\"kind\":\"tbf\",\"handle\":\"8002:\",\"dev\":\"eth1\",\"root\":true,\"refcnt\":3,\"options\":{\"rate\":1250000},"
                + "\"bytes\":" + bytes + ",\"packets\":" + packets + ",\"drops\":" + drops + ",\"overlimits\":"
                + overlimits + ",\"requeues\":0,\"backlog\":0,\"qlen\":0}]";
    }

    private static String fixture(String name) throws IOException {
        try (InputStream in = SampleParserTest.class.getResourceAsStream("/fixtures/tc/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
