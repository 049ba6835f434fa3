package dev.stretto.trace.episode;

import java.util.ArrayList;
import java.util.List;

/**
 * Text that only grows, asked again and again whether it contains a value: what turn
 * inference keeps (everything known before a turn, and what the turn returned). A plain
 * {@code indexOf} over it makes a long session quadratic, since most values asked for are
 * not there and each miss reads the whole text. So every run of two and of four characters
 * is also noted in a Bloom filter: a value with a run the text never had is certainly not in
 * it, and only the rest are looked for in the text. The answers are exactly {@code indexOf}'s.
 *
 * <p>The filter has at least four bits per character and doubles (and is filled again from
 * the text) when the text outgrows that, so a miss is found in a few lookups, whatever the
 * text's size. It is brought up to date when asked, not when the text grows: noting a run
 * is a write at a random place in a filter as large as the text, a cache miss once the text
 * is large, and most texts grow with every call (the proxy in active mode appends each call's
 * arguments) but are asked only now and then, or never. For the same reason appended pieces
 * are kept as they are (mostly strings a call's arguments hold anyway) and copied into the
 * text only when it is asked for or searched. Not thread-safe.
 */
final class SearchableText {
    private final StringBuilder text = new StringBuilder();
    /** Appended since the text was last asked for; strings, which cannot change. */
    private final List<String> pieces = new ArrayList<>();
    private long[] bits = new long[64];
    private int mask = 64 * 64 - 1;
    /** How much of the text the filter holds: its runs that end before this position. */
    private int noted;

    /** Appends {@code s}. */
    SearchableText append(CharSequence s) {
        pieces.add(s.toString());
        return this;
    }

    /** Appends {@code c}. */
    SearchableText append(char c) {
        return append(c == '\n' ? "\n" : String.valueOf(c));
    }

    /** Whether the text holds {@code value} (as {@code indexOf(value) >= 0}). */
    boolean contains(String value) {
        catchUp();
        int n = value.length();
        if (n >= 4) {
            for (int i = 0; i + 4 <= n; i++) {
                if (!has(gram4(value, i))) {
                    return false;
                }
            }
        } else if (n >= 2) {
            for (int i = 0; i + 2 <= n; i++) {
                if (!has(gram2(value, i))) {
                    return false;
                }
            }
        }
        return text.indexOf(value) >= 0;
    }

    /** The text itself. */
    CharSequence text() {
        for (String p : pieces) {
            text.append(p);
        }
        pieces.clear();
        return text;
    }

    /** Notes what was appended since the filter was last brought up to date. */
    private void catchUp() {
        text();
        if (noted == text.length()) {
            return;
        }
        if (text.length() * 4L > mask + 1L) {
            grow();
        } else {
            note(noted);
        }
        noted = text.length();
    }

    /** Notes the runs that end at each position from {@code from} on. */
    private void note(int from) {
        int start = Math.max(0, from - 3);
        char[] c = new char[text.length() - start];
        text.getChars(start, text.length(), c, 0);
        for (int p = Math.max(from, 1) - start; p < c.length; p++) {
            add(1L << 62 | (long) c[p - 1] << 16 | c[p]);
            if (p + start >= 3) {
                add((long) c[p - 3] << 48 | (long) c[p - 2] << 32 | (long) c[p - 1] << 16 | c[p]);
            }
        }
    }

    private void grow() {
        int size = bits.length;
        while ((long) size * 64 < text.length() * 4L) {
            size *= 2;
        }
        bits = new long[size];
        mask = size * 64 - 1;
        note(0);
    }

    private static long gram2(CharSequence s, int i) {
        return 1L << 62 | (long) s.charAt(i) << 16 | s.charAt(i + 1);
    }

    private static long gram4(CharSequence s, int i) {
        return (long) s.charAt(i) << 48 | (long) s.charAt(i + 1) << 32 | (long) s.charAt(i + 2) << 16 | s.charAt(i + 3);
    }

    // Two bits per run, from two halves of one mixed hash.
    private void add(long gram) {
        long h = mix(gram);
        set((int) h & mask);
        set((int) (h >>> 32) & mask);
    }

    private boolean has(long gram) {
        long h = mix(gram);
        return isSet((int) h & mask) && isSet((int) (h >>> 32) & mask);
    }

    private void set(int bit) {
        bits[bit >>> 6] |= 1L << bit;
    }

    private boolean isSet(int bit) {
        return (bits[bit >>> 6] & 1L << bit) != 0;
    }

    private static long mix(long x) {
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        x *= 0xc4ceb9fe1a85ec53L;
        return x ^ x >>> 33;
    }
}
