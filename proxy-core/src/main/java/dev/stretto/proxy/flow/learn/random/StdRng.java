package dev.stretto.proxy.flow.learn.random;

/**
 * Rust's {@code rand 0.8} {@code StdRng} (ChaCha12 in {@code rand_chacha 0.3}), seeded with
 * {@code seed_from_u64}, and the few ways {@code rand} draws from it that learning uses. The
 * reference's learned alpha depends on every bit drawn here, so each method follows the Rust
 * code's arithmetic exactly, including how it walks its buffer of 64 words.
 *
 * <p>Not thread-safe; one chain owns one generator.
 */
public final class StdRng {

    private static final long PCG_MUL = 6364136223846793005L;
    private static final long PCG_INC = 0xA17654E46FBE17F3L; // 11634580027462260723
    private static final int WORDS = ChaCha12.BLOCK_WORDS * ChaCha12.BLOCKS;
    private static final double F64_UNIT = 1.0 / (1L << 53);

    private final ChaCha12 core;
    private final int[] buffer = new int[WORDS];
    private int index = WORDS;

    private StdRng(int[] key) {
        this.core = new ChaCha12(key);
    }

    /** {@code StdRng::seed_from_u64(seed)}. */
    public static StdRng seedFromU64(long seed) {
        return new StdRng(pcg32Key(seed));
    }

    /**
     * The eight key words {@code seed_from_u64} makes from a seed: eight rounds of PCG32
     * (XSH RR output) starting from the seed as the state.
     */
    public static int[] pcg32Key(long seed) {
        int[] key = new int[8];
        long state = seed;
        for (int i = 0; i < key.length; i++) {
            state = state * PCG_MUL + PCG_INC;
            int xorshifted = (int) (((state >>> 18) ^ state) >>> 27);
            int rot = (int) (state >>> 59);
            key[i] = Integer.rotateRight(xorshifted, rot);
        }
        return key;
    }

    /**
     * {@code next_u64}: two words of the buffer, the first the low half, refilling the buffer
     * when it is used up. Nothing here draws a single 32-bit word, so the index is always
     * even and rand_core's case of one word left at the end never arises.
     */
    public long nextU64() {
        if (index >= WORDS) {
            core.refill(buffer);
            index = 0;
        }
        long v = word(index + 1) << 32 | word(index);
        index += 2;
        return v;
    }

    private long word(int i) {
        return buffer[i] & 0xFFFFFFFFL;
    }

    /** {@code rng.gen::<f64>()}: 53 random bits scaled into [0, 1). */
    public double nextF64() {
        return (nextU64() >>> 11) * F64_UNIT;
    }

    /**
     * {@code rng.sample(Open01)} for f64: 52 random bits as the mantissa of a number in
     * [1, 2), minus (1 - 2^-53), giving a value in (0, 1).
     */
    public double nextOpen01() {
        double oneToTwo = Double.longBitsToDouble((nextU64() >>> 12) | (1023L << 52));
        return oneToTwo - (1.0 - Math.ulp(1.0) / 2.0);
    }

    /**
     * {@code rng.gen_range(0..n)} for {@code usize} on a 64-bit target: Lemire's widening
     * multiply with rejection from {@code rand 0.8}'s {@code sample_single}.
     *
     * @param n the exclusive upper bound, at least 1 (read as unsigned)
     */
    public long genRange(long n) {
        if (n == 0) {
            throw new IllegalArgumentException("gen_range of an empty range");
        }
        long zone = (n << Long.numberOfLeadingZeros(n)) - 1;
        while (true) {
            long v = nextU64();
            long hi = Math.unsignedMultiplyHigh(v, n);
            long lo = v * n;
            if (Long.compareUnsigned(lo, zone) <= 0) {
                return hi;
            }
        }
    }
}
