package dev.stretto.cli.init;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the objects of a JSON text are: for each object its braces, and for each member where
 * its key and value begin and end, as offsets into the text. {@link JsonDocument} edits a file
 * through these spans, so that everything it does not change (other entries, formatting,
 * comments) stays as it was, byte for byte.
 */
final class JsonLayout {

    /**
     * An object of the text.
     *
     * @param open    the offset of its {@code {}
     * @param close   the offset of its {@code }}
     * @param members its members in the order of the text
     */
    record ObjectSpan(int open, int close, Map<String, Member> members) {

        Optional<Member> member(String name) {
            return Optional.ofNullable(members.get(name));
        }

        Optional<Member> last() {
            return members.isEmpty() ? Optional.empty() : Optional.of(List.copyOf(members.values()).getLast());
        }
    }

    /**
     * One member: {@code keyStart} at its key's opening quote, the value from {@code valueStart}
     * to {@code valueEnd} (exclusive); {@code object} when the value is an object, else null.
     */
    record Member(String name, int keyStart, int valueStart, int valueEnd, ObjectSpan object) {
    }

    private JsonLayout() {
    }

    /**
     * The spans of the object at the top of {@code text}, which the caller has parsed already
     * (with the same {@code factory}, so with the same comments allowed or not).
     *
     * @param offset added to every offset (a byte order mark the parser was not given)
     */
    static ObjectSpan of(JsonFactory factory, String text, int offset) throws IOException {
        try (JsonParser p = factory.createParser(text)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("the top level is not an object");
            }
            return object(p, offset);
        }
    }

    private static ObjectSpan object(JsonParser p, int offset) throws IOException {
        int open = at(p, offset);
        Map<String, Member> members = new LinkedHashMap<>();
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            int keyStart = at(p, offset);
            JsonToken value = p.nextToken();
            int valueStart = at(p, offset);
            ObjectSpan nested = null;
            if (value == JsonToken.START_OBJECT) {
                nested = object(p, offset);
            } else if (value == JsonToken.START_ARRAY) {
                p.skipChildren();
            } else {
                // A string is read lazily: its end is known once it is read to the end.
                p.finishToken();
            }
            members.put(name, new Member(name, keyStart, valueStart, after(p, offset), nested));
        }
        if (t != JsonToken.END_OBJECT) {
            throw new IOException("an object does not end where it should");
        }
        return new ObjectSpan(open, at(p, offset), members);
    }

    private static int at(JsonParser p, int offset) {
        return Math.toIntExact(p.currentTokenLocation().getCharOffset()) + offset;
    }

    private static int after(JsonParser p, int offset) {
        return Math.toIntExact(p.currentLocation().getCharOffset()) + offset;
    }

    /** Whether {@code text} has a comment between {@code from} and {@code to} (outside strings). */
    static boolean hasComment(String text, int from, int to) {
        boolean inString = false;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '/' && i + 1 < to && (text.charAt(i + 1) == '/' || text.charAt(i + 1) == '*')) {
                return true;
            }
        }
        return false;
    }

    /**
     * The offset of the first character after {@code from} that is neither white space nor
     * inside a comment, or {@code text.length()}.
     */
    static int skipBlankAndComments(String text, int from) {
        int i = from;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (text.startsWith("//", i)) {
                int nl = text.indexOf('\n', i);
                i = nl < 0 ? text.length() : nl + 1;
            } else if (text.startsWith("/*", i)) {
                int end = text.indexOf("*/", i + 2);
                i = end < 0 ? text.length() : end + 2;
            } else {
                return i;
            }
        }
        return i;
    }

    /**
     * The white space that the line holding {@code offset} starts with, when only white space
     * stands before {@code offset} on it; null when something else does.
     */
    static String lineIndent(String text, int offset) {
        int start = offset;
        while (start > 0 && text.charAt(start - 1) != '\n' && text.charAt(start - 1) != '\r') {
            start--;
        }
        String before = text.substring(start, offset);
        return before.isBlank() ? before : null;
    }

    /** The white space the line holding {@code offset} starts with, whatever follows it. */
    static String indentOfLine(String text, int offset) {
        int start = offset;
        while (start > 0 && text.charAt(start - 1) != '\n' && text.charAt(start - 1) != '\r') {
            start--;
        }
        int end = start;
        while (end < text.length() && (text.charAt(end) == ' ' || text.charAt(end) == '\t')) {
            end++;
        }
        return text.substring(start, end);
    }

    /**
     * One level of the text's indentation: a tab when its first indented line starts with one,
     * else the smallest run of spaces that starts a line (two when no line is indented).
     */
    static String indentUnit(String text) {
        int smallest = Integer.MAX_VALUE;
        for (String line : text.split("\r?\n", -1)) {
            if (line.startsWith("\t")) {
                return smallest == Integer.MAX_VALUE ? "\t" : " ".repeat(smallest);
            }
            int n = 0;
            while (n < line.length() && line.charAt(n) == ' ') {
                n++;
            }
            if (n > 0 && n < line.length()) {
                smallest = Math.min(smallest, n);
            }
        }
        return smallest == Integer.MAX_VALUE ? "  " : " ".repeat(smallest);
    }

    /** Every member's key of the path below {@code root}, the spans found so far. */
    static List<Member> walk(ObjectSpan root, List<String> path) {
        List<Member> found = new ArrayList<>();
        ObjectSpan at = root;
        for (String key : path) {
            if (at == null) {
                break;
            }
            Member m = at.members().get(key);
            if (m == null) {
                break;
            }
            found.add(m);
            at = m.object();
        }
        return found;
    }
}
