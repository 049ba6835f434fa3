package dev.stretto.trace.log;

/**
 * Decodes UTF-8 the way the reference writes a raw entry (Rust's
 * {@code String::from_utf8_lossy}): each <em>maximal subpart</em> of an ill-formed sequence
 * becomes one U+FFFD, as the Unicode Standard recommends (chapter 3, "U+FFFD Substitution of
 * Maximal Subparts"). A maximal subpart is the longest start of a well-formed sequence (Table
 * 3-7) found at a position, or else one byte. So {@code ED A0 80} (an encoded surrogate) gives
 * three U+FFFD, since no well-formed sequence starts {@code ED A0}, while {@code E2 82} cut short
 * gives one. The JDK's decoder counts some of these differently, which would make our raw
 * entries differ from the reference's for the same bytes.
 */
final class LossyUtf8 {

    private static final char REPLACEMENT = '\uFFFD';

    private LossyUtf8() {
    }

    static String decode(byte[] buf, int off, int len) {
        StringBuilder out = new StringBuilder(len);
        int end = off + len;
        int i = off;
        while (i < end) {
            int b = buf[i] & 0xFF;
            if (b < 0x80) {
                out.append((char) b);
                i++;
                continue;
            }
            int need;
            int min = 0x80;
            int max = 0xBF;
            if (b >= 0xC2 && b <= 0xDF) {
                need = 1;
            } else if (b >= 0xE0 && b <= 0xEF) {
                need = 2;
                if (b == 0xE0) {
                    min = 0xA0;
                } else if (b == 0xED) {
                    max = 0x9F;
                }
            } else if (b >= 0xF0 && b <= 0xF4) {
                need = 3;
                if (b == 0xF0) {
                    min = 0x90;
                } else if (b == 0xF4) {
                    max = 0x8F;
                }
            } else {
                // 80..C1 and F5..FF never start a well-formed sequence.
                out.append(REPLACEMENT);
                i++;
                continue;
            }
            int codePoint = b & (0x3F >> need);
            int j = i + 1;
            int got = 0;
            while (got < need && j < end) {
                int c = buf[j] & 0xFF;
                // Only the second byte has a narrower range; the others are 80..BF.
                if (c < (got == 0 ? min : 0x80) || c > (got == 0 ? max : 0xBF)) {
                    break;
                }
                codePoint = (codePoint << 6) | (c & 0x3F);
                got++;
                j++;
            }
            if (got == need) {
                out.appendCodePoint(codePoint);
            } else {
                out.append(REPLACEMENT);
            }
            i = j;
        }
        return out.toString();
    }
}
