package dev.stretto.proxy.math;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RandomTest {

    @Test
    void fnv1aOfTheServedSessionsIdIsTheDocumentedValue() {
        assertEquals("8617075012100812910", Long.toUnsignedString(Fnv1a64.hash("20260928T020401.117Z-14662")));
        assertEquals(0, Fnv1a64.fold("20260928T020401.117Z-14662"));
        assertEquals("1469598103934665603", Long.toUnsignedString(Fnv1a64.hash("")));
    }

    @Test
    void fnv1aGoesOnFromAPrefixsHashAsOverTheWholeText() {
        assertEquals(Fnv1a64.hash("20260928T020401.117Z-14662"),
                Fnv1a64.extend(Fnv1a64.extend(Fnv1a64.hash(""), "20260928T020401"), ".117Z-14662"));
        assertEquals(Fnv1a64.hash("caf\u00e9 \ud83d\ude00/[]"),
                Fnv1a64.extend(Fnv1a64.hash("caf\u00e9 "), "\ud83d\ude00/[]"));
    }

    @Test
    void theShopSessionsFallInTheFoldsTheirHashesGive() {
        assertEquals(4, Fnv1a64.fold("20260928T020400.548Z-14457"));
        assertEquals(3, Fnv1a64.fold("20260928T020400.587Z-14486"));
        assertEquals(0, Fnv1a64.fold("20260928T020400.679Z-14565"));
    }

    @Test
    void splitmixFromZeroGivesTheKnownFirstValues() {
        SplitMix64 r = new SplitMix64(0);
        assertEquals(0xe220a8397b1dcdafL, r.nextLong());
        assertEquals(0x6e789e6aa1b965f4L, r.nextLong());
        assertEquals((0x06c45d188009454fL >>> 11) * 0x1.0p-53, r.nextDouble());
    }
}
