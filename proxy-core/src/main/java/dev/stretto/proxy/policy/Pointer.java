package dev.stretto.proxy.policy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where in a call's arguments a condition looks: a JSON pointer (RFC 6901: {@code /path},
 * {@code /edits/0/oldText}, {@code ~1} for {@code /} and {@code ~0} for {@code ~} in a key), with
 * one addition: a segment {@code *} is every element of an array, or every member of an object
 * ({@code /paths/*}). The empty pointer is the arguments themselves.
 *
 * @param text     the pointer as written
 * @param segments its keys and indexes, unescaped
 */
record Pointer(String text, List<String> segments) {

    /** The segment that stands for every element or member. */
    static final String EVERY = "*";

    Pointer {
        segments = List.copyOf(segments);
    }

    /**
     * Reads a pointer.
     *
     * @throws IllegalArgumentException saying what is wrong with it
     */
    static Pointer parse(String text) {
        if (text.isEmpty()) {
            return new Pointer(text, List.of());
        }
        if (text.charAt(0) != '/') {
            throw new IllegalArgumentException("'" + text + "' is not a JSON pointer: it starts with / (/path, /edits/0)");
        }
        List<String> segments = new ArrayList<>();
        StringBuilder s = new StringBuilder();
        for (int i = 1; i <= text.length(); i++) {
            char c = i < text.length() ? text.charAt(i) : '/';
            if (c == '/') {
                segments.add(s.toString());
                s.setLength(0);
            } else if (c == '~') {
                char next = i + 1 < text.length() ? text.charAt(i + 1) : 0;
                if (next != '0' && next != '1') {
                    throw new IllegalArgumentException("the JSON pointer '" + text + "' has a ~ that is not ~0 (for ~)"
                            + " or ~1 (for /)");
                }
                s.append(next == '0' ? '~' : '/');
                i++;
            } else {
                s.append(c);
            }
        }
        return new Pointer(text, segments);
    }

    /** Every value the pointer finds in {@code arguments}, in order; none when it finds nothing. */
    List<JsonNode> values(JsonNode arguments) {
        List<JsonNode> here = List.of(arguments);
        for (String segment : segments) {
            List<JsonNode> next = new ArrayList<>();
            for (JsonNode node : here) {
                step(node, segment, next);
            }
            here = next;
            if (here.isEmpty()) {
                break;
            }
        }
        return here;
    }

    private static void step(JsonNode node, String segment, List<JsonNode> out) {
        if (segment.equals(EVERY) && node.isContainerNode()) {
            if (node.isArray()) {
                node.forEach(out::add);
            } else {
                for (Map.Entry<String, JsonNode> e : node.properties()) {
                    out.add(e.getValue());
                }
            }
        } else if (node.isObject()) {
            JsonNode v = node.get(segment);
            if (v != null) {
                out.add(v);
            }
        } else if (node.isArray() && isIndex(segment)) {
            JsonNode v = node.get(Integer.parseInt(segment));
            if (v != null) {
                out.add(v);
            }
        }
    }

    private static boolean isIndex(String s) {
        return !s.isEmpty() && s.length() < 10 && s.chars().allMatch(c -> c >= '0' && c <= '9')
                && (s.length() == 1 || s.charAt(0) != '0');
    }

    /**
     * Every object the pointer passes through in {@code arguments}, with the key it looks up
     * there: where a server matching keys without regard to case could take another key for it.
     */
    List<Map.Entry<JsonNode, String>> lookups(JsonNode arguments) {
        List<Map.Entry<JsonNode, String>> out = new ArrayList<>();
        List<JsonNode> here = List.of(arguments);
        for (String segment : segments) {
            List<JsonNode> next = new ArrayList<>();
            for (JsonNode node : here) {
                if (node.isObject() && !segment.equals(EVERY)) {
                    out.add(Map.entry(node, segment));
                }
                step(node, segment, next);
            }
            here = next;
        }
        return out;
    }

    @Override
    public String toString() {
        return text;
    }
}
