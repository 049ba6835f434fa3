package dev.stretto.proxy.flow.learn.bindings;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.learn.ByteOrder;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Every string value of a tool's output with its path (stretto-learn 3.9.5), in document
 * order: objects' keys in byte order (how serde_json holds them), arrays in order. Learning
 * looks an argument's value up this way; the paths are those the binding rule
 * ({@code dev.stretto.proxy.flow.bind.JsonPaths}) reads values at.
 */
final class StringPaths {

    /**
     * A string value found in an output.
     *
     * @param path  where it is ({@code $}, {@code $.orders[*]})
     * @param value the string
     */
    record Found(String path, String value) {
    }

    private StringPaths() {
    }

    static List<Found> strings(JsonNode output) {
        List<Found> found = new ArrayList<>();
        walk(output, "$", found);
        return found;
    }

    private static void walk(JsonNode node, String path, List<Found> found) {
        if (node.isTextual()) {
            found.add(new Found(path, node.textValue()));
        } else if (node.isArray()) {
            for (JsonNode item : node) {
                walk(item, path + "[*]", found);
            }
        } else if (node.isObject()) {
            for (Map.Entry<String, JsonNode> member : sortedMembers(node)) {
                walk(member.getValue(), path + "." + member.getKey(), found);
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
}
