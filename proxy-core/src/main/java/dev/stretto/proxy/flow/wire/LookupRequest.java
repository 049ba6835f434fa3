package dev.stretto.proxy.flow.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.trace.json.CanonicalJson;

/**
 * The request line of a lookup the proxy makes itself:
 * {@code {"id":"stretto-<n>","jsonrpc":"2.0","method":"tools/call","params":{"arguments":{...},"name":"<tool>"}}},
 * keys sorted, compact, without a newline. {@code n} counts the proxy's own requests in a
 * session (1, 2, ...), shared with {@code stretto_commit}'s calls.
 */
public final class LookupRequest {

    private LookupRequest() {
    }

    /** The JSON-RPC id of the proxy's {@code n}-th request: {@code stretto-<n>}. */
    public static String id(long n) {
        return "stretto-" + n;
    }

    /** The request line of the proxy's {@code n}-th request, a call of {@code tool}. */
    public static String line(long n, String tool, JsonNode arguments) {
        ObjectNode request = JsonNodeFactory.instance.objectNode();
        request.put("id", id(n));
        request.put("jsonrpc", "2.0");
        request.put("method", "tools/call");
        ObjectNode params = request.putObject("params");
        params.set("arguments", arguments.deepCopy());
        params.put("name", tool);
        return CanonicalJson.write(request);
    }
}
