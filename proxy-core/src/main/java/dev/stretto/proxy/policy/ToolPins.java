package dev.stretto.proxy.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Each tool's fingerprint as the server first listed it: what the model reads of the tool
 * (its name, title, description, input and output schemas and annotations). A later listing
 * of the tool is held against it, and the parts that differ are named. Not thread-safe: one
 * session's.
 */
final class ToolPins {

    /** The parts of a tool that make its fingerprint, in the order a change names them. */
    static final List<String> PARTS = List.of("title", "description", "inputSchema", "outputSchema", "annotations");

    private final Map<String, ObjectNode> pinned = new HashMap<>();

    /**
     * The parts of {@code tool} (one element of a listing's {@code tools}) that differ from the
     * tool as first listed; none when it is as it was, or listed now for the first time (it is
     * pinned then).
     */
    List<String> changes(String name, JsonNode tool) {
        ObjectNode now = fingerprint(tool);
        ObjectNode first = pinned.putIfAbsent(name, now);
        List<String> changed = new ArrayList<>();
        if (first != null) {
            for (String part : PARTS) {
                JsonNode a = first.get(part);
                JsonNode b = now.get(part);
                if (a == null ? b != null : b == null || !Condition.same(a, b)) {
                    changed.add(part);
                }
            }
        }
        return changed;
    }

    private static ObjectNode fingerprint(JsonNode tool) {
        ObjectNode f = JsonNodeFactory.instance.objectNode();
        for (String part : PARTS) {
            JsonNode v = tool.get(part);
            if (v != null) {
                f.set(part, v.deepCopy());
            }
        }
        return f;
    }
}
