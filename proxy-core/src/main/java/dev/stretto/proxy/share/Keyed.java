package dev.stretto.proxy.share;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Numbers drawn from HMAC-SHA-256 under the run's key: the same key and the same words give
 * the same numbers, on any machine, and nobody without the key can tell which words gave them.
 * Each draw for one set of words reads the next bytes of HMAC(key, words, block) for blocks
 * 0, 1, ...
 */
final class Keyed {

    private final SecretKeySpec key;

    Keyed(byte[] key) {
        this.key = new SecretKeySpec(key, "HmacSHA256");
    }

    /** The draws for {@code words}; a NUL separates them, so ("ab", "c") and ("a", "bc") differ. */
    Draws draws(String... words) {
        return new Draws(String.join("\0", words));
    }

    /** A lowercase hex digest of {@code words}, {@code length} digits (at most 64). */
    String hex(int length, String... words) {
        byte[] mac = mac(String.join("\0", words) + "\0hex");
        StringBuilder out = new StringBuilder(64);
        for (byte b : mac) {
            out.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
        }
        return out.substring(0, length);
    }

    private byte[] mac(String message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac.doFinal(message.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            // Every JDK has HmacSHA256.
            throw new IllegalStateException(e);
        }
    }

    /** A stream of numbers for one set of words. */
    final class Draws {
        private final String words;
        private byte[] block;
        private int blockNo = -1;
        private int at;

        private Draws(String words) {
            this.words = words;
        }

        /** A number from 0 to {@code bound - 1} (four bytes a draw: the bias is below 1e-9). */
        int below(int bound) {
            long v = 0;
            for (int i = 0; i < 4; i++) {
                v = v << 8 | nextByte();
            }
            return (int) (v % bound);
        }

        /** One of the characters of {@code alphabet}. */
        char of(String alphabet) {
            return alphabet.charAt(below(alphabet.length()));
        }

        private int nextByte() {
            if (block == null || at == block.length) {
                blockNo++;
                block = mac(words + "\0" + blockNo);
                at = 0;
            }
            return block[at++] & 0xFF;
        }
    }
}
