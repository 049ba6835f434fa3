package dev.stretto.trace.episode;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * One tool call an assistant turn made.
 *
 * @param id        the JSON-RPC id: a string id as it is, a number as its JSON text
 *                  ({@code "3"}, {@code "stretto-1"})
 * @param name      the tool's name
 * @param arguments the call's arguments ({@code {}} when the request had none); a private
 *                  copy, so changing the node passed in does not change the call
 */
public record ToolCall(String id, String name, JsonNode arguments) {

    public ToolCall {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(arguments, "arguments");
        arguments = arguments.deepCopy();
    }

    /** The arguments; a copy, since JSON trees are mutable. */
    @Override
    public JsonNode arguments() {
        return arguments.deepCopy();
    }
}
