package dev.stretto.proxy.share;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.json.JsonRpcId;
import dev.stretto.trace.log.Source;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Follows a session's requests down its log, so that a response is read as the answer to what
 * it answers: a tool list stays as it is, a tool's result is that tool's. Requests to the
 * server come from the host and from the proxy (its lookups); requests to the host come from
 * the server, matched by {@linkplain JsonRpcId#key id}. Every tool a call names is told to the
 * dictionary, whose names are never taken for values (the listed ones come from {@code
 * ToolListings}).
 */
final class RequestTracker {

    private record Request(String method, String tool) {
    }

    private final Map<String, Request> toServer = new HashMap<>();
    private final Map<String, Request> toHost = new HashMap<>();
    private final Dictionary names;

    /** @param names where tool names go, or null */
    RequestTracker(Dictionary names) {
        this.names = names;
    }

    /** What each message of a logged line is (one, or each of a batch), noting its requests. */
    List<Zone.Message> observe(JsonNode message, Source from) {
        List<Zone.Message> out = new ArrayList<>();
        if (message.isArray()) {
            for (JsonNode m : message) {
                out.add(one(m, from));
            }
        } else {
            out.add(one(message, from));
        }
        return out;
    }

    private Zone.Message one(JsonNode m, Source from) {
        if (!m.isObject()) {
            return new Zone.Message(null, null, false);
        }
        JsonNode method = m.get("method");
        JsonNode id = m.get("id");
        if (method != null && method.isTextual()) {
            String tool = null;
            if (method.textValue().equals("tools/call")) {
                JsonNode name = m.path("params").get("name");
                tool = name != null && name.isTextual() ? name.textValue() : null;
                tool(tool);
            }
            if (id != null && !id.isNull()) {
                Map<String, Request> table = from == Source.SERVER ? toHost : toServer;
                table.put(JsonRpcId.key(id), new Request(method.textValue(), tool));
            }
            return new Zone.Message(method.textValue(), tool, false);
        }
        if (id == null || !(m.has("result") || m.has("error"))) {
            return new Zone.Message(null, null, false);
        }
        Map<String, Request> table = from == Source.CLIENT ? toHost : toServer;
        Request r = table.get(JsonRpcId.key(id));
        if (r == null) {
            return new Zone.Message(null, null, true);
        }
        return new Zone.Message(r.method(), r.tool(), true);
    }

    private void tool(String name) {
        if (names != null) {
            names.tool(name);
        }
    }
}
