package dev.stretto.proxy.active;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.LineClassifier;
import java.nio.charset.StandardCharsets;

/**
 * The messages the proxy writes itself, and how it reads the answers to its own requests.
 * Written as the reference writes a generic JSON value: compact, keys sorted.
 */
final class ProxyLines {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private ProxyLines() {
    }

    /**
     * A tools/call result the proxy gives in the server's place: {@code {"id":..,"jsonrpc":"2.0",
     * "result":{"content":[{"text":..,"type":"text"}],"isError":..}}}.
     */
    static ObjectNode toolResult(JsonNode id, String text, boolean isError) {
        ObjectNode response = NODES.objectNode();
        response.set("id", id.deepCopy());
        response.put("jsonrpc", "2.0");
        ObjectNode result = response.putObject("result");
        ObjectNode item = result.putArray("content").addObject();
        item.put("text", text);
        item.put("type", "text");
        result.put("isError", isError);
        return response;
    }

    /**
     * A JSON-RPC error the proxy gives in the server's place: {@code {"error":{"code":..,
     * "message":..},"id":..,"jsonrpc":"2.0"}}.
     */
    static ObjectNode error(JsonNode id, int code, String message) {
        ObjectNode response = NODES.objectNode();
        ObjectNode error = response.putObject("error");
        error.put("code", code);
        error.put("message", message);
        response.set("id", id.deepCopy());
        response.put("jsonrpc", "2.0");
        return response;
    }

    /** The proxy's own {@code tools/call} request with id {@code id}. */
    static ObjectNode toolCall(String id, String tool, JsonNode arguments) {
        ObjectNode request = NODES.objectNode();
        request.put("id", id);
        request.put("jsonrpc", "2.0");
        request.put("method", "tools/call");
        ObjectNode params = request.putObject("params");
        params.set("arguments", arguments.deepCopy());
        params.put("name", tool);
        return request;
    }

    /** A message's line: compact, keys sorted, UTF-8. */
    static byte[] bytes(JsonNode message) {
        return CanonicalJson.write(message).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The line as the session log keeps it, parsed, when the log keeps it as a message; null
     * when the log keeps it as raw text (not one JSON value, or one its readers cannot read back).
     */
    static JsonNode logged(byte[] line) {
        // Parsed from the bytes: the same tree as the message's text gives, sooner.
        return LineClassifier.isMessage(line) ? parse(line) : null;
    }

    /**
     * The line parsed, whatever the log makes of it; null when it is not JSON. Read as the
     * log's readers read a message ({@link CanonicalJson#readTree}: {@code -0} is {@code -0.0}),
     * so the session's episode is the one {@code Episode.of} gives for the log.
     */
    static JsonNode parse(byte[] line) {
        try (JsonParser p = CanonicalJson.factory().createParser(line)) {
            return CanonicalJson.readTree(p);
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
    }
}
