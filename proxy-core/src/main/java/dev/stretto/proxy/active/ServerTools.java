package dev.stretto.proxy.active;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The tools the server listed in its {@code tools/list} answers: each one's name, its {@code
 * readOnlyHint} and its input schema, as last listed. What the proxy's own calls may use
 * (a flow looks up only tools the server does not mark as writes). Actor thread only.
 */
final class ServerTools {

    /**
     * One listed tool.
     *
     * @param name         its name
     * @param readOnlyHint the annotation's value, or null when the server gives none
     * @param inputSchema  its input schema, or null
     */
    record Tool(String name, Boolean readOnlyHint, JsonNode inputSchema) {
    }

    private final Map<String, Tool> tools = new LinkedHashMap<>();
    private boolean listed;

    /** Takes the tools of one {@code tools/list} answer (one page of them). */
    void learn(JsonNode response) {
        JsonNode list = response == null ? null : response.path("result").get("tools");
        if (list == null || !list.isArray()) {
            return;
        }
        listed = true;
        for (JsonNode t : list) {
            JsonNode name = t.get("name");
            if (name == null || !name.isTextual()) {
                continue;
            }
            JsonNode hint = t.path("annotations").get("readOnlyHint");
            tools.put(name.textValue(), new Tool(name.textValue(), hint != null && hint.isBoolean() ? hint.booleanValue() : null,
                    t.get("inputSchema")));
        }
    }

    /** Whether the server has answered a {@code tools/list} yet. */
    boolean listed() {
        return listed;
    }

    /** The tool named {@code name}, if the server listed it. */
    Optional<Tool> get(String name) {
        return Optional.ofNullable(tools.get(name));
    }
}
