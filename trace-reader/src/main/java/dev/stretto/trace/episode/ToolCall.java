package dev.stretto.trace.episode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.stretto.trace.json.CanonicalJson;
import java.util.Objects;
import java.util.Optional;

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

    /**
     * Checks the call and copies its arguments.
     *
     * @throws NullPointerException when a component is null
     */
    public ToolCall {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(arguments, "arguments");
        arguments = arguments.deepCopy();
    }

    /**
     * The call a {@code tools/call} request makes, read as an episode reads it: the id as
     * {@link #idText} spells it, the name ({@code ""} when missing or not a string) and the
     * arguments ({@code {}} when missing or null).
     *
     * @param message a JSON-RPC message
     * @return the call, or empty when {@code message} is not a {@code tools/call} request with an id
     */
    public static Optional<ToolCall> ofRequest(JsonNode message) {
        if (message == null || !message.isObject() || !"tools/call".equals(message.path("method").textValue())) {
            return Optional.empty();
        }
        JsonNode id = message.get("id");
        if (id == null || id.isNull()) {
            return Optional.empty();
        }
        JsonNode params = message.get("params");
        JsonNode name = params == null ? null : params.get("name");
        JsonNode args = params == null ? null : params.get("arguments");
        return Optional.of(new ToolCall(idText(id), name != null && name.isTextual() ? name.textValue() : "",
                args == null || args.isNull() ? JsonNodeFactory.instance.objectNode() : args));
    }

    /**
     * A JSON-RPC id as an episode spells it: a string as it is, anything else as its JSON text.
     *
     * @param id the id
     * @return its spelling
     */
    public static String idText(JsonNode id) {
        return id.isTextual() ? id.textValue() : CanonicalJson.write(id);
    }

    /** {@return the arguments; a copy, since JSON trees are mutable} */
    @Override
    public JsonNode arguments() {
        return arguments.deepCopy();
    }
}
