package dev.stretto.cli.learn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class Fnv1aTest {

    @Test
    void aServedSessionsTaskHashesAsInTheReferenceAndFallsInFoldZero() {
        // stretto-formats 2.5: the reference's offset basis is 1469598103934665603.
        assertEquals("8617075012100812910", Long.toUnsignedString(Fnv1a.hash64("20260928T020401.117Z-14662")));
        assertEquals(0, Fnv1a.fold("20260928T020401.117Z-14662"));
    }

    @Test
    void theShopSessionsFallInTheFoldsTheirHashesGive() {
        assertEquals(4, Fnv1a.fold("20260928T020400.548Z-14457"));
        assertEquals(3, Fnv1a.fold("20260928T020400.587Z-14486"));
        assertEquals(0, Fnv1a.fold("20260928T020400.679Z-14565"));
    }
}
