package dev.stretto.proxy.flow.bind;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.stretto.trace.json.CanonicalJson;

/**
 * A tool's result text as bindings read it: the JSON it holds if it parses; otherwise, when
 * the text has more than one non-blank line, the list of its trimmed non-blank lines (path
 * {@code $[*]}); otherwise the whole text as one string (path {@code $}).
 */
public final class ToolOutput {

    private ToolOutput() {
    }

    /** Parses {@code content} as described above. */
    public static JsonNode parse(String content) {
        try {
            return CanonicalJson.parse(content);
        } catch (IllegalArgumentException notJson) {
            ArrayNode lines = JsonNodeFactory.instance.arrayNode();
            for (String line : content.split("\\R", -1)) {
                if (!line.isBlank()) {
                    lines.add(line.strip());
                }
            }
            return lines.size() > 1 ? lines : TextNode.valueOf(content);
        }
    }
}
