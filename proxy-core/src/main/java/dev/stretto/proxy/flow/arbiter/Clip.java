package dev.stretto.proxy.flow.arbiter;

/**
 * Texts shortened for the System-One model as the reference shortens them: white space
 * trimmed at both ends (Unicode's White_Space, as Rust's {@code trim}), then, when more than
 * the limit is left, the first {@code limit} characters and {@code …}. Characters are Unicode
 * scalar values (code points), so an emoji counts once and is never split.
 */
public final class Clip {

    /** What marks a clipped text. */
    public static final String ELLIPSIS = "\u2026";

    private Clip() {
    }

    /** {@code text} trimmed and clipped to {@code limit} characters (plus the ellipsis). */
    public static String clip(String text, int limit) {
        String t = trim(text);
        if (t.codePointCount(0, t.length()) <= limit) {
            return t;
        }
        return t.substring(0, t.offsetByCodePoints(0, limit)) + ELLIPSIS;
    }

    /** {@code text} without the Unicode white space at its ends. */
    public static String trim(String text) {
        int from = 0;
        int to = text.length();
        while (from < to) {
            int c = text.codePointAt(from);
            if (!isWhiteSpace(c)) {
                break;
            }
            from += Character.charCount(c);
        }
        while (to > from) {
            int c = text.codePointBefore(to);
            if (!isWhiteSpace(c)) {
                break;
            }
            to -= Character.charCount(c);
        }
        return text.substring(from, to);
    }

    // Unicode's White_Space property, which Rust's char::is_whitespace follows; Java's
    // Character.isWhitespace leaves out the no-break spaces and U+0085.
    private static boolean isWhiteSpace(int c) {
        return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680
                || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F
                || c == 0x3000;
    }
}
