package dev.stretto.proxy.flow.learn.random;

/**
 * The ChaCha stream cipher's block function with 12 rounds, as {@code rand_chacha 0.3}
 * runs it for Rust's {@code StdRng}: the constants {@code "expand 32-byte k"}, a 256-bit key,
 * a 64-bit block counter in words 12 and 13 and stream 0 in words 14 and 15. Each output
 * word is the final state plus the input state.
 */
final class ChaCha12 {

    /** Words per block, and blocks produced per refill (rand_chacha fills four at a time). */
    static final int BLOCK_WORDS = 16;
    static final int BLOCKS = 4;

    private static final int[] CONSTANTS = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
    private static final int DOUBLE_ROUNDS = 6;

    private final int[] key;
    private long counter;

    /** @param key the eight key words (little-endian words of the 32-byte seed) */
    ChaCha12(int[] key) {
        if (key.length != 8) {
            throw new IllegalArgumentException("a ChaCha key is 8 words, got " + key.length);
        }
        this.key = key.clone();
    }

    /** Writes the next four blocks (64 words) into {@code out} and advances the counter by four. */
    void refill(int[] out) {
        int[] input = new int[BLOCK_WORDS];
        int[] x = new int[BLOCK_WORDS];
        for (int b = 0; b < BLOCKS; b++) {
            System.arraycopy(CONSTANTS, 0, input, 0, 4);
            System.arraycopy(key, 0, input, 4, 8);
            input[12] = (int) counter;
            input[13] = (int) (counter >>> 32);
            input[14] = 0;
            input[15] = 0;
            counter++;
            System.arraycopy(input, 0, x, 0, BLOCK_WORDS);
            for (int r = 0; r < DOUBLE_ROUNDS; r++) {
                quarter(x, 0, 4, 8, 12);
                quarter(x, 1, 5, 9, 13);
                quarter(x, 2, 6, 10, 14);
                quarter(x, 3, 7, 11, 15);
                quarter(x, 0, 5, 10, 15);
                quarter(x, 1, 6, 11, 12);
                quarter(x, 2, 7, 8, 13);
                quarter(x, 3, 4, 9, 14);
            }
            for (int i = 0; i < BLOCK_WORDS; i++) {
                out[b * BLOCK_WORDS + i] = x[i] + input[i];
            }
        }
    }

    private static void quarter(int[] x, int a, int b, int c, int d) {
        x[a] += x[b];
        x[d] = Integer.rotateLeft(x[d] ^ x[a], 16);
        x[c] += x[d];
        x[b] = Integer.rotateLeft(x[b] ^ x[c], 12);
        x[a] += x[b];
        x[d] = Integer.rotateLeft(x[d] ^ x[a], 8);
        x[c] += x[d];
        x[b] = Integer.rotateLeft(x[b] ^ x[c], 7);
    }
}
