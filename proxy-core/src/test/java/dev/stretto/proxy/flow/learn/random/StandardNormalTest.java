package dev.stretto.proxy.flow.learn.random;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** rand_distr 0.4.3's ziggurat reproduced: the start value of stretto-learn 3.4.2. */
class StandardNormalTest {

    @Test
    void seed7StartsTheAlphaChainAtTheReferencesValue() {
        StdRng rng = StdRng.seedFromU64(7);
        assertEquals(-2.0871532534599675, StandardNormal.sample(rng, 0.0, 2.0));
    }

    @Test
    void theFirstDrawFallsInLayer190AndIsAcceptedAtOnce() {
        long bits = 559256596868823998L;
        assertEquals(190, bits & 0xFF);
        double u = Double.longBitsToDouble((bits >>> 12) | (1024L << 52)) - 3.0;
        assertEquals(-0.9393652782697974, u);
        assertEquals(-1.0435766267299837, StandardNormal.sample(StdRng.seedFromU64(7)));
    }

    @Test
    void samplesHaveMeanZeroAndUnitSpread() {
        StdRng rng = StdRng.seedFromU64(42);
        int n = 200_000;
        double sum = 0;
        double squares = 0;
        for (int i = 0; i < n; i++) {
            double z = StandardNormal.sample(rng);
            sum += z;
            squares += z * z;
        }
        assertEquals(0.0, sum / n, 0.01);
        assertEquals(1.0, squares / n, 0.01);
    }
}
