package dev.tclab.grading.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class QuantityTest {

    private static Quantity q(String text) {
        return Quantity.parse(text).quantity();
    }

    @Test
    void shouldUseDecimalPrefixesForRatesLikeTc() {
        assertEquals(10_000_000, q("10mbit").in(Unit.BIT_PER_S));
        assertEquals(4_500_000, q("4500kbit").in(Unit.BIT_PER_S));
        assertEquals(1_250_000, q("10mbit").in(Unit.BYTE_PER_S), 1e-9, "tc JSON rates are bytes/s");
        assertEquals(1.5, q("1.5gbit/s").in(Unit.GBIT_PER_S), 1e-12);
        assertEquals(10, q("10MBIT").in(Unit.MBIT_PER_S), 1e-12, "units are case-insensitive like tc's");
    }

    @Test
    void shouldUseBinaryPrefixesForSizesLikeTc() {
        assertEquals(32 * 1024, q("32kb").in(Unit.BYTES));
        assertEquals(4 * 1024 * 1024, q("4mb").in(Unit.BYTES));
        assertEquals(1590, q("1590b").in(Unit.BYTES));
    }

    @Test
    void shouldConvertTimes() {
        assertEquals(50, q("50ms").in(Unit.MS), 1e-9);
        assertEquals(100_000, q("100ms").in(Unit.US), 1e-6);
        assertEquals(0.25, q("250us").in(Unit.MS), 1e-12);
        assertEquals(2000, q("2s").in(Unit.MS), 1e-9);
        assertEquals(12, q("12µs").in(Unit.US), 1e-9);
    }

    @Test
    void shouldTakeBareNumbersInTheFieldsOwnUnit() {
        assertEquals(9.5, q("9.5").in(Unit.MBIT_PER_S));
        assertEquals(0.1, q("0.1").in(Unit.NONE));
    }

    @Test
    void shouldRefuseToCompareDifferentDimensions() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> q("32kb").in(Unit.MBIT_PER_S));
        assertTrue(e.getMessage().contains("a size"), e.getMessage());
    }

    @Test
    void shouldRejectAmbiguousAndUnknownUnits() {
        Quantity.Parsed mbps = Quantity.parse("10mbps");
        assertNull(mbps.quantity());
        assertTrue(mbps.problem().contains("write '10mbit'"), mbps.problem());
        assertTrue(Quantity.parse("10furlongs").problem().contains("unknown unit"));
        assertTrue(Quantity.parse("fast").problem().contains("not a number"));
    }

    @Test
    void shouldPrintMeasuresForPeople() {
        assertEquals("9.64 Mbit/s", new Measure(9.6408, Unit.MBIT_PER_S).toString());
        assertEquals("94.3 ms", new Measure(94.322, Unit.MS).toString());
        assertEquals("100 %", new Measure(100, Unit.PERCENT).toString());
        assertEquals("617", new Measure(616.54, Unit.NONE).toString());
        assertEquals("35888 Mbit/s", new Measure(35887.8, Unit.MBIT_PER_S).toString());
        assertEquals("0.00106", new Measure(0.0010645, Unit.NONE).toString());
        assertEquals("1250000 bytes/s", new Measure(1_250_000, Unit.BYTE_PER_S).toString());
        assertEquals("0", new Measure(0.0, Unit.NONE).toString());
    }

    @Test
    void shouldConvertMeasuresWithinTheirDimensionOnly() {
        assertEquals(new Measure(10, Unit.MBIT_PER_S), new Measure(1_250_000, Unit.BYTE_PER_S).in(Unit.MBIT_PER_S));
        assertEquals(new Measure(32, Unit.KB), new Measure(32_768, Unit.BYTES).in(Unit.KB));
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> new Measure(5, Unit.MS).in(Unit.BYTES));
        assertEquals("5 ms is a time (us, ms, s), not a size (b, kb, mb, gb)", e.getMessage());
    }
}
