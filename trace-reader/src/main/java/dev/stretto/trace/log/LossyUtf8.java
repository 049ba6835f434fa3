package dev.stretto.trace.log;

import java.nio.charset.StandardCharsets;

/**
 * UTF-8 made well-formed the way the reference writes a raw entry (Rust's {@code
 * String::from_utf8_lossy}): each <em>maximal subpart</em> of an ill-formed sequence becomes
 * one U+FFFD, as the Unicode Standard recommends (chapter 3, "U+FFFD Substitution of Maximal
 * Subparts"). A maximal subpart is the longest start of a well-formed sequence (Table 3-7)
 * found at a position, or else one byte. So {@code ED A0 80} (an encoded surrogate) gives three
 * U+FFFD, since no well-formed sequence starts {@code ED A0}, while {@code E2 82} cut short gives
 * one. The JDK's decoder counts some of these differently, which would make our raw entries
 * differ from the reference's for the same bytes.
 *
 * <p>It works on bytes, in one pass over pieces given in order (a sequence may be split
 * between two), and writes UTF-8: well-formed sequences as they are, U+FFFD as {@code EF BF
 * BD}; for a raw entry ({@code json}) it also escapes the text as {@link JsonText} does. Not
 * thread-safe.
 */
final class LossyUtf8 {

    private static final byte[] REPLACEMENT = {(byte) 0xEF, (byte) 0xBF, (byte) 0xBD};

    private final ByteOut out;
    private final boolean json;
    // A well-formed sequence begun at the end of the last piece: its bytes so far, how many
    // more it needs, and the range of the next.
    private final byte[] pending = new byte[4];
    private int pendingLength;
    private int need;
    private int low;
    private int high;

    /** @param json whether to escape the text as the inside of a JSON string */
    LossyUtf8(ByteOut out, boolean json) {
        this.out = out;
        this.json = json;
    }

    /** The bytes as text, each ill-formed subpart replaced. */
    static String decode(byte[] buf, int off, int len) {
        ByteOut text = new ByteOut(null, Math.max(16, len));
        LossyUtf8 lossy = new LossyUtf8(text, false);
        lossy.update(buf, off, len);
        lossy.finish();
        return new String(text.bytes(), StandardCharsets.UTF_8);
    }

    /** The next piece. */
    void update(byte[] b, int off, int len) {
        int end = off + len;
        int i = need > 0 ? finishPending(b, off, end) : off;
        int run = i;
        while (i < end) {
            byte c = b[i];
            if (c >= 0x20 && c != '"' && c != '\\' || c >= 0 && !json) {
                i++;
                continue;
            }
            if (c >= 0) {
                out.put(b, run, i - run);
                String escape = JsonText.escapeOf(c);
                for (int k = 0; k < escape.length(); k++) {
                    out.put(escape.charAt(k));
                }
                run = ++i;
                continue;
            }
            int n = sequence(b, i, end);
            if (n > 0) {
                i += n;
                continue;
            }
            out.put(b, run, i - run);
            if (n == 0) {
                // Continued in the next piece: held until it is whole or broken.
                while (i < end) {
                    pending[pendingLength++] = b[i++];
                }
                run = end;
                break;
            }
            out.put(REPLACEMENT, 0, 3);
            i -= n;
            run = i;
        }
        out.put(b, run, i - run);
    }

    /** The end of the text: a sequence left unfinished becomes one U+FFFD. */
    void finish() {
        if (need > 0) {
            out.put(REPLACEMENT, 0, 3);
            need = 0;
            pendingLength = 0;
        }
    }

    // Continues the sequence held from the last piece; returns where this piece's own text starts.
    private int finishPending(byte[] b, int i, int end) {
        while (i < end) {
            int c = b[i] & 0xFF;
            if (c < low || c > high) {
                // Broken: what was held is one subpart, and this byte starts anew.
                out.put(REPLACEMENT, 0, 3);
                need = 0;
                pendingLength = 0;
                return i;
            }
            pending[pendingLength++] = (byte) c;
            i++;
            low = 0x80;
            high = 0xBF;
            if (--need == 0) {
                out.put(pending, 0, pendingLength);
                pendingLength = 0;
                return i;
            }
        }
        return end;
    }

    /**
     * The sequence at {@code b[i]} (a byte of 0x80 or more): its length when well-formed and
     * whole before {@code end}; 0 when well-formed so far but cut by the piece's end (its state
     * is set, to be continued); otherwise minus the length of its maximal subpart.
     */
    private int sequence(byte[] b, int i, int end) {
        int lead = b[i] & 0xFF;
        int n;
        int lo = 0x80;
        int hi = 0xBF;
        if (lead >= 0xC2 && lead <= 0xDF) {
            n = 1;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            n = 2;
            if (lead == 0xE0) {
                lo = 0xA0;
            } else if (lead == 0xED) {
                hi = 0x9F;
            }
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            n = 3;
            if (lead == 0xF0) {
                lo = 0x90;
            } else if (lead == 0xF4) {
                hi = 0x8F;
            }
        } else {
            // 80..C1 and F5..FF never start a well-formed sequence.
            return -1;
        }
        for (int k = 1; k <= n; k++) {
            if (i + k == end) {
                need = n - k + 1;
                low = lo;
                high = hi;
                return 0;
            }
            int c = b[i + k] & 0xFF;
            if (c < lo || c > hi) {
                return -k;
            }
            lo = 0x80;
            hi = 0xBF;
        }
        return n + 1;
    }
}
