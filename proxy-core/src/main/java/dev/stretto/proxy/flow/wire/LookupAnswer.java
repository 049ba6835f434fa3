package dev.stretto.proxy.flow.wire;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What one of the proxy's own calls (a lookup, a commit's call) returned, as the appended item
 * shows it: a JSON-RPC error's {@code message} (or the word {@code error}), failed, as is an
 * answer that is not JSON; else the {@code text} of every {@code result.content}
 * item that has one, joined with newlines, failed when {@code isError} is true. (Episodes read
 * results differently: only {@code type: "text"} items, with fallbacks.)
 *
 * @param text   the text
 * @param failed whether the lookup failed
 */
public record LookupAnswer(String text, boolean failed) {

    /** Requires a text. */
    public LookupAnswer {
        Objects.requireNonNull(text, "text");
    }

    /** The answer in the server's response to a lookup; {@code response} is null when the answer is not JSON. */
    public static LookupAnswer of(JsonNode response) {
        JsonNode error = response == null ? null : response.get("error");
        if (response == null || error != null && !error.isNull()) {
            JsonNode message = error == null ? null : error.get("message");
            return new LookupAnswer(message != null && message.isTextual() ? message.textValue() : "error", true);
        }
        JsonNode result = response.path("result");
        List<String> texts = new ArrayList<>();
        JsonNode content = result.get("content");
        if (content != null && content.isArray()) {
            for (JsonNode item : content) {
                JsonNode text = item.get("text");
                if (text != null && text.isTextual()) {
                    texts.add(text.textValue());
                }
            }
        }
        JsonNode isError = result.get("isError");
        return new LookupAnswer(String.join("\n", texts), isError != null && isError.isBoolean() && isError.booleanValue());
    }
}
