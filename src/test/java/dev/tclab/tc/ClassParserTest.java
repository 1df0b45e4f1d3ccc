package dev.tclab.tc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClassParserTest {

    @Test
    void shouldReadHtbClassesWithStatsCapturedFromLabImage() throws Exception {
        List<TcClass> classes = ClassParser.parse(Fixtures.read("tc/class-htb.txt"));
        assertEquals(
                List.of("1:10", "1:1", "1:20", "20:1"),
                classes.stream().map(TcClass::classId).toList());
        TcClass c10 = classes.get(0);
        assertEquals("htb", c10.kind());
        assertEquals("1:1", c10.parent());
        assertNull(c10.leaf());
        assertEquals(1, c10.prio());
        assertEquals(48_000_000L, c10.rateBitsPerSecond());
        assertEquals(90_000_000L, c10.ceilBitsPerSecond());
        assertEquals(1590L, c10.burstBytes());
        assertEquals(1586L, c10.cburstBytes());
        assertEquals(new QdiscStats(22799529, 15076, 0, 488, 0, 0, 0), c10.stats());
        assertEquals(253L, c10.lended());
        assertEquals(254L, c10.borrowed());
        assertEquals(3984L, c10.tokens());
        assertEquals(2126L, c10.ctokens());
        assertTrue(classes.get(1).isRoot());
        assertEquals("20:", classes.get(2).leaf());
        TcClass tbfClass = classes.get(3);
        assertEquals("tbf", tbfClass.kind());
        assertEquals("20:", tbfClass.parent());
        assertNull(tbfClass.rateBitsPerSecond());
        assertEquals(QdiscStats.NONE, tbfClass.stats());
    }

    @Test
    void shouldReadSfqFlowClassesThatCountOnlyTheirQueue() throws Exception {
        List<TcClass> classes = ClassParser.parse(Fixtures.read("tc/class-htb-sfq-flows-uml.txt"));

        assertEquals(
                List.of("1:10", "1:1", "10:61", "10:87"),
                classes.stream().map(TcClass::classId).toList());
        assertEquals(1_000_000L, classes.get(0).rateBitsPerSecond());
        TcClass flow = classes.get(2);
        assertEquals("sfq", flow.kind());
        assertEquals("10:", flow.parent());
        assertEquals(new QdiscStats(0, 0, 0, 0, 0, 66616, 2), flow.stats());
    }

    @Test
    void shouldReadQuantumFromDetailedOutput() throws Exception {
        List<TcClass> classes = ClassParser.parse(Fixtures.read("tc/class-htb-details.txt"));
        assertEquals(6000L, classes.get(0).quantum());
        assertEquals(1590L, classes.get(0).burstBytes(), "burst 1590b/1 is 1590 bytes");
        assertEquals(1250L, classes.get(2).quantum());
    }

    @Test
    void shouldReadTextThatIproute2BeforeSixTwoPrintsForJsonFlag() throws Exception {
        List<TcClass> classes = ClassParser.parse(Fixtures.read("tc/class-htb-j-flag-iproute2-6.1.txt"));
        assertEquals("10:", classes.get(0).leaf());
        assertEquals(4, classes.size());
    }

    @Test
    void shouldReadHandWrittenIproute2SixTwoJsonInBitsPerSecond() throws Exception {
        // Hand-written in the shape of iproute2 >= 6.2's class JSON (rates in bytes/s); Debian 12 has 6.1.
        List<TcClass> classes = ClassParser.parse(Fixtures.read("tc/handwritten-class-htb-iproute2-6.2.json"));
        assertTrue(classes.get(0).isRoot());
        assertEquals(90_000_000L, classes.get(0).rateBitsPerSecond());
        assertEquals(48_000_000L, classes.get(1).rateBitsPerSecond());
        assertEquals("10:", classes.get(1).leaf());
        assertEquals(254L, classes.get(1).borrowed());
        assertEquals(15076, classes.get(1).stats().packets());
    }

    @Test
    void shouldTreatEmptyOutputAsNoClasses() throws Exception {
        assertEquals(List.of(), ClassParser.parse(""));
    }

    @Test
    void shouldRejectTextThatIsNotAClassListing() {
        TcParseException e =
                assertThrows(TcParseException.class, () -> ClassParser.parse("Cannot find device \"eth9\"\n"));
        assertTrue(e.getMessage().contains("'class <kind> <id>'"), e.getMessage());
    }

    @Test
    void shouldRejectTruncatedStatistics() {
        String truncated =
                "class htb 1:10 parent 1:1 prio 1 rate 48Mbit ceil 90Mbit burst 1590b cburst 1586b\n Sent 22799529 by";
        TcParseException e = assertThrows(TcParseException.class, () -> ClassParser.parse(truncated));
        assertTrue(e.getMessage().contains("Sent <n> bytes"), e.getMessage());
    }

    @Test
    void shouldRejectGarbledRate() {
        assertThrows(TcParseException.class, () -> ClassParser.parse("class htb 1:1 root rate fast ceil 90Mbit\n"));
    }
}
