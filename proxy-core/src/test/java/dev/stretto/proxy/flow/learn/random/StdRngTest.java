package dev.stretto.proxy.flow.learn.random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Rust's StdRng::seed_from_u64 reproduced: the vectors of stretto-learn 3.4.2. */
class StdRngTest {

    @Test
    void seed7GivesThePcg32KeyWordsOfRandCore() {
        assertArrayEquals(new int[] {994053320, 158081232, 1866180151, 505761778, 456112956, 1515619507,
                359047322, 1059068685}, StdRng.pcg32Key(7));
    }

    @Test
    void seed7GivesTheFirstSixU64sOfRustsStdRng() {
        StdRng rng = StdRng.seedFromU64(7);
        long[] expected = {559256596868823998L, 5664742077951270790L, 2631283358781127885L,
                Long.parseUnsignedLong("10007675695454462105"), 5026687532413362614L,
                Long.parseUnsignedLong("17545275723285031904")};
        for (long e : expected) {
            assertEquals(Long.toUnsignedString(e), Long.toUnsignedString(rng.nextU64()));
        }
    }

    @Test
    void aFloatIsTheTop53BitsOfADraw() {
        StdRng rng = StdRng.seedFromU64(7);
        assertEquals((559256596868823998L >>> 11) * 0x1.0p-53, rng.nextF64());
    }

    @Test
    void genRangeOfOneRedrawsWhileTheTopBitIsSet() {
        // Draws 1..3 have the top bit clear, draw 4 (10007675695454462105) has it set.
        StdRng rng = StdRng.seedFromU64(7);
        for (int i = 0; i < 3; i++) {
            assertEquals(0, rng.genRange(1));
        }
        StdRng same = StdRng.seedFromU64(7);
        for (int i = 0; i < 3; i++) {
            same.nextU64();
        }
        // The fourth gen_range consumes draws 4 and 5.
        assertEquals(0, rng.genRange(1));
        same.nextU64();
        same.nextU64();
        assertEquals(same.nextU64(), rng.nextU64());
    }

    @Test
    void genRangeMapsADrawByTheHighHalfOfTheWideProduct() {
        StdRng rng = StdRng.seedFromU64(7);
        long draw = 559256596868823998L;
        assertEquals(Math.unsignedMultiplyHigh(draw, 10), rng.genRange(10));
    }

    @Test
    void open01IsStrictlyBetweenZeroAndOne() {
        StdRng rng = StdRng.seedFromU64(7);
        double v = rng.nextOpen01();
        double expected = Double.longBitsToDouble((559256596868823998L >>> 12) | (1023L << 52)) - (1.0 - 0x1.0p-53);
        assertEquals(expected, v);
    }
}
