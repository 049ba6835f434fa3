package dev.stretto.cli.learn.bindings;

import java.util.Locale;

/**
 * Rust's {@code str::trim} and {@code to_lowercase}, which the binding rule applies to the
 * customer's words and to values: trimming takes Unicode's White_Space characters (Java's
 * {@code strip} leaves a no-break space, Rust's trim does not).
 */
public final class RustText {

    private RustText() {
    }

    /** Whether a code point has Unicode's White_Space property, as Rust's char::is_whitespace. */
    static boolean isWhitespace(int c) {
        return switch (c) {
            case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000 -> true;
            default -> c >= 0x2000 && c <= 0x200A;
        };
    }

    /** {@code s.trim()}. */
    public static String trim(String s) {
        int start = 0;
        int end = s.length();
        while (start < end && isWhitespace(s.codePointAt(start))) {
            start += Character.charCount(s.codePointAt(start));
        }
        while (end > start && isWhitespace(s.codePointBefore(end))) {
            end -= Character.charCount(s.codePointBefore(end));
        }
        return s.substring(start, end);
    }

    /** {@code s.to_lowercase()}. */
    public static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }

    /**
     * Whether the customer's words mention a value: the value lower-cased and trimmed, with
     * or without its leading {@code #}s, occurs in {@code text} (already lower-cased).
     */
    public static boolean mentions(String text, String value) {
        String v = trim(lower(value));
        int hashes = 0;
        while (hashes < v.length() && v.charAt(hashes) == '#') {
            hashes++;
        }
        String bare = v.substring(hashes);
        return !bare.isEmpty() && (text.contains(v) || text.contains(bare));
    }

    /** Whether a value is key-like: at least 4 characters, one of them an ASCII digit. */
    public static boolean keyish(String value) {
        return value.codePointCount(0, value.length()) >= 4 && value.chars().anyMatch(c -> c >= '0' && c <= '9');
    }
}
