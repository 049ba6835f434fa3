package dev.stretto.cli.learn.bindings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.stretto.cli.learn.ByteOrder;
import dev.stretto.trace.json.CanonicalJson;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Paths to string values inside a tool's output (stretto-learn 3.9.5): {@code $} is the
 * output, {@code .key} an object member, {@code [*]} any array element. Outputs are walked in
 * document order, objects' keys in byte order (how serde_json holds them).
 */
public final class JsonPaths {

    /**
     * A string value found in an output.
     *
     * @param path   where it is
     * @param value  the string
     * @param parent the object holding it, or null when an array or the output itself does
     */
    public record Hit(String path, String value, JsonNode parent) {
    }

    private JsonPaths() {
    }

    /**
     * A result's content as bindings read it: JSON when it parses; else, with more than one
     * non-blank line, the array of its trimmed non-blank lines; else the text as one string.
     */
    public static JsonNode parseOutput(String content) {
        try {
            return CanonicalJson.parse(content);
        } catch (IllegalArgumentException notJson) {
            List<String> lines = new ArrayList<>();
            for (String line : content.split("\n", -1)) {
                String t = RustText.trim(line);
                if (!t.isEmpty()) {
                    lines.add(t);
                }
            }
            if (lines.size() > 1) {
                var array = JsonNodeFactory.instance.arrayNode();
                lines.forEach(array::add);
                return array;
            }
            return JsonNodeFactory.instance.textNode(content);
        }
    }

    /** Every string value of {@code output} with its path, in document order. */
    public static List<Hit> strings(JsonNode output) {
        List<Hit> hits = new ArrayList<>();
        walk(output, "$", null, hits);
        return hits;
    }

    private static void walk(JsonNode node, String path, JsonNode parent, List<Hit> hits) {
        if (node.isTextual()) {
            hits.add(new Hit(path, node.textValue(), parent));
        } else if (node.isArray()) {
            for (JsonNode item : node) {
                walk(item, path + "[*]", null, hits);
            }
        } else if (node.isObject()) {
            for (Map.Entry<String, JsonNode> member : sortedMembers(node)) {
                walk(member.getValue(), path + "." + member.getKey(), node, hits);
            }
        }
    }

    /** An object's members with keys in byte order. */
    static List<Map.Entry<String, JsonNode>> sortedMembers(JsonNode object) {
        List<Map.Entry<String, JsonNode>> members = new ArrayList<>(object.size());
        for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
            members.add(it.next());
        }
        members.sort(Map.Entry.comparingByKey(ByteOrder.STRINGS));
        return members;
    }

    /** The string values at {@code path} in {@code output}, in document order. */
    public static List<String> at(JsonNode output, String path) {
        List<JsonNode> nodes = new ArrayList<>();
        nodes.add(output);
        if (!path.startsWith("$")) {
            return List.of();
        }
        int i = 1;
        while (i < path.length() && !nodes.isEmpty()) {
            List<JsonNode> next = new ArrayList<>();
            if (path.startsWith("[*]", i)) {
                for (JsonNode n : nodes) {
                    if (n.isArray()) {
                        n.forEach(next::add);
                    }
                }
                i += 3;
            } else if (path.charAt(i) == '.') {
                int end = i + 1;
                while (end < path.length() && path.charAt(end) != '.' && !path.startsWith("[*]", end)) {
                    end++;
                }
                String key = path.substring(i + 1, end);
                for (JsonNode n : nodes) {
                    JsonNode v = n.isObject() ? n.get(key) : null;
                    if (v != null) {
                        next.add(v);
                    }
                }
                i = end;
            } else {
                return List.of();
            }
            nodes = next;
        }
        List<String> values = new ArrayList<>();
        for (JsonNode n : nodes) {
            if (n.isTextual()) {
                values.add(n.textValue());
            }
        }
        return values;
    }
}
