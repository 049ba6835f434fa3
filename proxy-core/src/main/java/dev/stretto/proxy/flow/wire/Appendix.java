package dev.stretto.proxy.flow.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.trace.json.CanonicalJson;
import java.util.List;
import java.util.Objects;

/**
 * The text item a flow appends to the agent's result: the lookups it made and what each
 * returned, so the agent need not make them itself.
 */
public final class Appendix {

    /** The item's first line. */
    public static final String HEADER =
            "--- Also looked up automatically (current results; no need to repeat these calls) ---";

    private Appendix() {
    }

    /**
     * A lookup the flow made.
     *
     * @param tool      the tool
     * @param arguments its arguments
     * @param answer    what it returned
     */
    public record Made(String tool, JsonNode arguments, LookupAnswer answer) {
        /** Copies the arguments. */
        public Made {
            Objects.requireNonNull(tool, "tool");
            arguments = arguments.deepCopy();
            Objects.requireNonNull(answer, "answer");
        }
    }

    /**
     * The item's text: the header, then for each lookup a blank line and
     * {@code <tool> <arguments>[ (error)]:} with its text on the next line.
     */
    public static String text(List<Made> lookups) {
        StringBuilder text = new StringBuilder(HEADER);
        for (Made m : lookups) {
            text.append("\n\n").append(m.tool()).append(' ').append(CanonicalJson.write(m.arguments()));
            if (m.answer().failed()) {
                text.append(" (error)");
            }
            text.append(":\n").append(m.answer().text());
        }
        return text.toString();
    }

    /**
     * The agent's response with the item appended to {@code result.content} (created when
     * missing), re-serialised with sorted keys as one line. A response whose {@code result} is
     * not an object, or whose {@code content} is not a list, has nowhere to put the item and is
     * returned re-serialised without it.
     */
    public static String reply(JsonNode agentResponse, List<Made> lookups) {
        JsonNode copy = agentResponse.deepCopy();
        if (copy.get("result") instanceof ObjectNode result) {
            JsonNode content = result.get("content");
            ArrayNode items = content == null || content.isNull() ? result.putArray("content")
                    : content instanceof ArrayNode a ? a : null;
            if (items != null) {
                ObjectNode item = items.addObject();
                item.put("text", text(lookups));
                item.put("type", "text");
            }
        }
        return CanonicalJson.write(copy);
    }
}
