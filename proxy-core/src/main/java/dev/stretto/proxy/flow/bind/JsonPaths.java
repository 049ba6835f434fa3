package dev.stretto.proxy.flow.bind;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.json.CanonicalJson;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Paths to string values inside a tool's output: {@code $} is the output itself,
 * {@code .key} an object's member and {@code [*]} any element of an array
 * ({@code $.orders[*]}, {@code $.items[*].product_id}). Objects are walked in byte order of
 * their keys, which is the order the reference stores and walks them in ("document order").
 */
public final class JsonPaths {

    private JsonPaths() {
    }

    /**
     * A string value found in an output.
     *
     * @param value    the string
     * @param siblings the other string members of the object that holds it directly (none when
     *                 it is an array's element or the output itself)
     */
    public record Hit(String value, List<String> siblings) {
        /** Copies the siblings. */
        public Hit {
            siblings = List.copyOf(siblings);
        }
    }

    /** The string values at {@code path} in {@code root}, in document order. */
    public static List<Hit> at(JsonNode root, String path) {
        List<Hit> out = new ArrayList<>();
        List<String> segments = segments(path);
        if (segments != null) {
            walk(root, null, segments, 0, out);
        }
        return out;
    }

    /** The segments of a path ({@code .key} as the key, {@code [*]} as null), or null when it is not one. */
    private static List<String> segments(String path) {
        if (!path.startsWith("$")) {
            return null;
        }
        List<String> segments = new ArrayList<>();
        int i = 1;
        while (i < path.length()) {
            if (path.startsWith("[*]", i)) {
                segments.add(null);
                i += 3;
            } else if (path.charAt(i) == '.') {
                int end = i + 1;
                while (end < path.length() && path.charAt(end) != '.' && !path.startsWith("[*]", end)) {
                    end++;
                }
                segments.add(path.substring(i + 1, end));
                i = end;
            } else {
                return null;
            }
        }
        return segments;
    }

    private static void walk(JsonNode node, JsonNode parent, List<String> segments, int at, List<Hit> out) {
        if (at == segments.size()) {
            if (node.isTextual()) {
                out.add(new Hit(node.textValue(), parent != null && parent.isObject() ? siblings(parent, node) : List.of()));
            }
            return;
        }
        String key = segments.get(at);
        if (key == null) {
            if (node.isArray()) {
                for (JsonNode element : node) {
                    walk(element, node, segments, at + 1, out);
                }
            }
        } else if (node.isObject() && node.has(key)) {
            walk(node.get(key), node, segments, at + 1, out);
        }
    }

    private static List<String> siblings(JsonNode object, JsonNode self) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : sortedMembers(object)) {
            if (e.getValue() != self && e.getValue().isTextual()) {
                out.add(e.getValue().textValue());
            }
        }
        return out;
    }

    /** Every string held under a member named {@code key}, at any depth, in document order. */
    public static List<Hit> underKey(JsonNode root, String key) {
        List<Hit> out = new ArrayList<>();
        underKey(root, key, out);
        return out;
    }

    private static void underKey(JsonNode node, String key, List<Hit> out) {
        if (node.isArray()) {
            for (JsonNode element : node) {
                underKey(element, key, out);
            }
        } else if (node.isObject()) {
            for (Map.Entry<String, JsonNode> e : sortedMembers(node)) {
                if (e.getKey().equals(key) && e.getValue().isTextual()) {
                    out.add(new Hit(e.getValue().textValue(), siblings(node, e.getValue())));
                }
                underKey(e.getValue(), key, out);
            }
        }
    }

    /** Every string (trimmed, lower-cased) and number (its JSON text) inside {@code node}. */
    public static void scalars(JsonNode node, java.util.Collection<String> out) {
        if (node.isContainerNode()) {
            for (JsonNode child : node) {
                scalars(child, out);
            }
        } else if (node.isTextual()) {
            out.add(Mentions.normal(node.textValue()));
        } else if (node.isNumber()) {
            out.add(CanonicalJson.write(node));
        }
    }

    static List<Map.Entry<String, JsonNode>> sortedMembers(JsonNode object) {
        List<Map.Entry<String, JsonNode>> members = new ArrayList<>(object.size());
        for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
            members.add(it.next());
        }
        members.sort((a, b) -> CanonicalJson.compareCodePoints(a.getKey(), b.getKey()));
        return members;
    }
}
