package dev.stretto.proxy.flow.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.manifest.ToolKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The server's tools as its {@code tools/list} answers listed them in this session. Each
 * answer adds its tools, a tool listed again replacing its earlier listing (so the pages of a
 * paginated listing add up). Immutable: {@link #with(JsonNode)} returns the next state.
 *
 * @param listed whether a {@code tools/list} answer has been seen
 * @param tools  each listed tool
 */
public record LiveTools(boolean listed, Map<String, Listed> tools) {

    /** No listing yet: every tool passes the listing check. */
    public static final LiveTools NONE = new LiveTools(false, Map.of());

    /** Copies the map. */
    public LiveTools {
        tools = Collections.unmodifiableMap(new HashMap<>(tools));
    }

    /**
     * One listed tool.
     *
     * @param kind     what its {@code annotations.readOnlyHint} says ({@link ToolKind#ofListing})
     * @param contract its input contract, or null without {@code inputSchema}
     * @param required the arguments its schema requires
     */
    public record Listed(ToolKind kind, String contract, List<String> required) {
        /** Copies the list. */
        public Listed {
            required = List.copyOf(required);
        }
    }

    /** These tools and those of one more {@code tools/list} result ({@code result}, with {@code tools}). */
    public LiveTools with(JsonNode result) {
        Map<String, Listed> next = new HashMap<>(tools);
        JsonNode list = result == null ? null : result.get("tools");
        if (list != null && list.isArray()) {
            for (JsonNode tool : list) {
                JsonNode name = tool.get("name");
                if (name == null || !name.isTextual()) {
                    continue;
                }
                JsonNode schema = tool.get("inputSchema");
                List<String> required = new ArrayList<>();
                JsonNode req = schema == null ? null : schema.get("required");
                if (req != null && req.isArray()) {
                    req.forEach(r -> {
                        if (r.isTextual()) {
                            required.add(r.textValue());
                        }
                    });
                }
                next.put(name.textValue(), new Listed(ToolKind.ofListing(tool), Contract.of(schema), required));
            }
        }
        return new LiveTools(true, next);
    }

    /** The tool's listing, or null when it was not listed. */
    public Listed get(String tool) {
        return tools.get(Objects.requireNonNull(tool, "tool"));
    }
}
