package dev.stretto.proxy.math;

import java.nio.charset.StandardCharsets;

/**
 * The 64-bit FNV-1a hash of a string's UTF-8 bytes, as the reference hashes task ids (the
 * arbiter's fold, learning's split) and exploration keys: prime 1099511628211, wrapping, and
 * offset basis 1469598103934665603. That basis is not FNV's standard 14695981039346656037 (a
 * digit short); the reference uses it, and its folds, splits and draws depend on it.
 */
public final class Fnv1a64 {

    private static final long OFFSET_BASIS = 1469598103934665603L;
    private static final long PRIME = 0x100000001b3L;

    private Fnv1a64() {
    }

    /** The hash of {@code text}'s UTF-8 bytes, as an unsigned value held in a long. */
    public static long hash(String text) {
        return extend(OFFSET_BASIS, text);
    }

    /**
     * The hash of a text that starts with one whose hash is {@code hash} and goes on with
     * {@code more}: {@code extend(hash(a), b) == hash(a + b)}, for texts whose UTF-8 bytes are
     * those of their parts (no surrogate pair split between them).
     */
    public static long extend(long hash, String more) {
        long h = hash;
        for (byte b : more.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= PRIME;
        }
        return h;
    }

    /**
     * The fold (0 to 4) the reference puts a task in: the hash of its id modulo 5, unsigned.
     * The arbiter picks its fitted model by it, and learning's cross-validation groups
     * sessions by it.
     */
    public static int fold(String taskId) {
        return (int) Long.remainderUnsigned(hash(taskId), 5);
    }
}
