package dev.stretto.proxy.flow.model;

import java.util.ArrayList;
import java.util.List;

/**
 * The rule for values the customer said ({@code bindings.said}, format 3): the customer's text
 * is cut into tokens, a value's <em>shape</em> keeps its characters but turns every ASCII digit
 * into {@code 9}, and a token of a shape binds the shape's characters with the token's digits
 * ({@code #w2378156} of the shape {@code #W9999999} binds {@code #W2378156}).
 */
public final class SaidShape {

    /** The punctuation trimmed off both ends of a token. */
    public static final String TRIMMED = ".,;:!?()[]\"'";

    private SaidShape() {
    }

    /**
     * The tokens of {@code text}, in order: maximal runs of characters that are not whitespace,
     * {@link #TRIMMED} punctuation cut off both ends, empty ones left out. One pass over the text.
     */
    public static List<String> tokens(String text) {
        List<String> tokens = new ArrayList<>();
        int n = text.length();
        int i = 0;
        while (i < n) {
            while (i < n && space(text.codePointAt(i))) {
                i += Character.charCount(text.codePointAt(i));
            }
            int start = i;
            while (i < n && !space(text.codePointAt(i))) {
                i += Character.charCount(text.codePointAt(i));
            }
            int end = i;
            while (start < end && TRIMMED.indexOf(text.charAt(start)) >= 0) {
                start++;
            }
            while (end > start && TRIMMED.indexOf(text.charAt(end - 1)) >= 0) {
                end--;
            }
            if (start < end) {
                tokens.add(text.substring(start, end));
            }
        }
        return tokens;
    }

    private static boolean space(int codePoint) {
        return Character.isWhitespace(codePoint) || Character.isSpaceChar(codePoint);
    }

    /** Whether {@code value} could be a token: not empty, no whitespace, no trimmed punctuation at either end. */
    public static boolean isToken(String value) {
        return !value.isEmpty() && tokens(value).equals(List.of(value));
    }

    /** The shape of {@code value}: every ASCII digit becomes {@code 9}, every other character stays. */
    public static String of(String value) {
        StringBuilder shape = new StringBuilder(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            shape.append(c >= '0' && c <= '9' ? '9' : c);
        }
        return shape.toString();
    }

    /**
     * The value a token of {@code shape} binds, or null when {@code token} is not of the shape:
     * it must have as many characters, an ASCII digit where the shape has {@code 9} and the
     * shape's character elsewhere (compared case-insensitively). The value has the shape's
     * characters and the token's digits.
     */
    public static String fill(String shape, String token) {
        if (shape.length() != token.length()) {
            return null;
        }
        StringBuilder value = new StringBuilder(shape.length());
        int i = 0;
        while (i < shape.length()) {
            int s = shape.codePointAt(i);
            int t = token.codePointAt(i);
            if (Character.charCount(s) != Character.charCount(t)) {
                return null;
            }
            if (s == '9') {
                if (t < '0' || t > '9') {
                    return null;
                }
                value.appendCodePoint(t);
            } else if (s == t || Character.toLowerCase(s) == Character.toLowerCase(t)
                    || Character.toUpperCase(s) == Character.toUpperCase(t)) {
                value.appendCodePoint(s);
            } else {
                return null;
            }
            i += Character.charCount(s);
        }
        return value.toString();
    }
}
