package dev.stretto.proxy.math;

/**
 * The splitmix64 generator, with wrapping 64-bit arithmetic: each draw adds
 * {@code 0x9e3779b97f4a7c15} to the state and mixes it. Not thread-safe.
 */
public final class SplitMix64 {

    private static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;

    private long state;

    /** A generator whose state starts at {@code seed}. */
    public SplitMix64(long seed) {
        this.state = seed;
    }

    /** The next 64 bits. */
    public long nextLong() {
        state += GOLDEN_GAMMA;
        return mix(state);
    }

    /** The next double in [0, 1): the top 53 bits of {@link #nextLong()} over 2^53. */
    public double nextDouble() {
        return (nextLong() >>> 11) * 0x1.0p-53;
    }

    /**
     * The splitmix64 finaliser: {@code z = (z ^ z>>>30) * 0xbf58476d1ce4e5b9;
     * z = (z ^ z>>>27) * 0x94d049bb133111eb; z ^ z>>>31}.
     */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
