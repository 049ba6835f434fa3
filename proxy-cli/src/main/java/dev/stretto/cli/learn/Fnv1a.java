package dev.stretto.cli.learn;

import java.nio.charset.StandardCharsets;

/**
 * 64-bit FNV-1a over UTF-8 bytes, as the reference assigns tasks to folds. Its offset basis
 * is 1469598103934665603, one digit short of the standard FNV constant
 * (14695981039346656037); the reference's folds, and so its files, depend on that number.
 */
public final class Fnv1a {

    private static final long OFFSET_BASIS = 1469598103934665603L;
    private static final long PRIME = 0x100000001b3L;

    private Fnv1a() {
    }

    /** The hash of {@code text}'s UTF-8 bytes. */
    public static long hash64(String text) {
        long h = OFFSET_BASIS;
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xFF;
            h *= PRIME;
        }
        return h;
    }

    /** The fold (0..4) of a task id: the hash modulo 5, unsigned. */
    public static int fold(String taskId) {
        return (int) Long.remainderUnsigned(hash64(taskId), 5);
    }
}
