package dev.stretto.proxy.math;

import java.nio.charset.StandardCharsets;

/**
 * The 64-bit FNV-1a hash of a string's UTF-8 bytes (offset basis 1469598103934665603, prime
 * 1099511628211, wrapping), as the reference hashes task ids (the arbiter's fold, learning's
 * split) and exploration keys.
 */
public final class Fnv1a64 {

    private static final long OFFSET_BASIS = 0xcbf29ce484222325L;
    private static final long PRIME = 0x100000001b3L;

    private Fnv1a64() {
    }

    /** The hash of {@code text}'s UTF-8 bytes, as an unsigned value held in a long. */
    public static long hash(String text) {
        long h = OFFSET_BASIS;
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= PRIME;
        }
        return h;
    }
}
