package dev.stretto.proxy.share;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.stretto.trace.json.CanonicalJson;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * JSON written inside a larger text: the proxy's appended lookups ({@code get_user_details
 * {"user_id":"user_41"}:\n{"email":...}}), a commit's results, a server's message that quotes
 * a record. Each object or array that starts after white space, a colon, a bracket, a comma or
 * an equals sign (or at the start) and parses whole is one fragment. Both passes over a file
 * find the same fragments in the same text. A text with many brackets that open nothing is
 * given up on after {@value #MAX_FAILURES} of them, so that no text costs more than a few
 * passes over it.
 */
final class Fragments {

    static final int MAX_FAILURES = 64;

    /** A fragment: where it starts and ends in the text. */
    record Fragment(int start, int end) {
    }

    private Fragments() {
    }

    /** Whether the whole of {@code text} (white space around it aside) is one JSON object or array. */
    static boolean wholeJson(String text) {
        int s = 0;
        int e = text.length();
        while (s < e && Character.isWhitespace(text.charAt(s))) {
            s++;
        }
        while (e > s && Character.isWhitespace(text.charAt(e - 1))) {
            e--;
        }
        if (e - s < 2) {
            return false;
        }
        char open = text.charAt(s);
        char close = text.charAt(e - 1);
        if (!((open == '{' && close == '}') || (open == '[' && close == ']'))) {
            return false;
        }
        return end(text.toCharArray(), s) == e;
    }

    /** The fragments of {@code text}, in order. */
    static List<Fragment> find(String text) {
        List<Fragment> out = new ArrayList<>();
        int failures = 0;
        int n = text.length();
        char[] chars = null;
        for (int i = 0; i < n && failures < MAX_FAILURES; i++) {
            char c = text.charAt(i);
            if ((c != '{' && c != '[') || (i > 0 && !opensAfter(text.charAt(i - 1)))) {
                continue;
            }
            if (chars == null) {
                chars = text.toCharArray();
            }
            int end = end(chars, i);
            if (end > i + 1) {
                out.add(new Fragment(i, end));
                i = end - 1;
            } else {
                failures++;
            }
        }
        return out;
    }

    private static boolean opensAfter(char c) {
        return Character.isWhitespace(c) || c == ':' || c == '(' || c == '[' || c == ',' || c == '=' || c == '>';
    }

    /** Where the JSON value that starts at {@code start} ends, or -1 when none does. */
    private static int end(char[] text, int start) {
        try (JsonParser p = CanonicalJson.factory().createParser(text, start, text.length - start)) {
            JsonToken t = p.nextToken();
            if (t != JsonToken.START_OBJECT && t != JsonToken.START_ARRAY) {
                return -1;
            }
            p.skipChildren();
            return start + (int) p.currentLocation().getCharOffset();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
