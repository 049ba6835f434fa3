package dev.stretto.proxy.http;

import dev.stretto.trace.log.JsonText;
import java.nio.charset.StandardCharsets;

/**
 * The JSON-RPC error lines the proxy writes to the host itself, compact with sorted keys:
 * {@code {"error":{"code":-32000,"message":"..."},"id":7,"jsonrpc":"2.0"}}.
 */
public final class ErrorLines {

    /** Implementation-defined server error: the upstream failed or refused. */
    public static final int UPSTREAM_FAILED = -32000;
    /** The host's line was not JSON. */
    public static final int PARSE_ERROR = -32700;
    /** The host's line was JSON but no single message object. */
    public static final int INVALID_REQUEST = -32600;

    private ErrorLines() {
    }

    /**
     * @param id the request's id as JSON text (a quoted string or a number), or null for
     *           {@code "id":null}
     */
    public static byte[] error(String id, int code, String message) {
        StringBuilder out = new StringBuilder(96 + message.length());
        out.append("{\"error\":{\"code\":").append(code).append(",\"message\":");
        JsonText.appendQuoted(out, message);
        out.append("},\"id\":").append(id == null ? "null" : id).append(",\"jsonrpc\":\"2.0\"}");
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }
}
