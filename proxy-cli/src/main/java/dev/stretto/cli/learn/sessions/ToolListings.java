package dev.stretto.cli.learn.sessions;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The tool lists a server gave in one session: each answer to a {@code tools/list} request
 * of the client (matched by id; the first answer only), as its {@code result.tools} array.
 */
final class ToolListings {

    private ToolListings() {
    }

    /** The listings of {@code log}, in log order; each one the listed tools in order. */
    static List<List<JsonNode>> of(SessionLog log) {
        List<List<JsonNode>> listings = new ArrayList<>();
        Set<String> asked = new HashSet<>();
        for (LogEntry e : log.entries()) {
            if (e.from() == Source.CONTEXT || !(e.payload() instanceof Payload.Message m)) {
                continue;
            }
            JsonNode node = m.tree().orElse(null);
            if (node == null) {
                continue;
            }
            for (JsonNode msg : node.isArray() ? node : List.of(node)) {
                JsonNode id = msg.get("id");
                if (!msg.isObject() || id == null || id.isNull()) {
                    continue;
                }
                String key = id.isTextual() ? "s" + id.textValue() : "j" + CanonicalJson.write(id);
                JsonNode method = msg.get("method");
                if (method != null) {
                    if (e.from() == Source.CLIENT && "tools/list".equals(method.textValue())) {
                        asked.add(key);
                    }
                } else if (e.from() != Source.CLIENT && asked.remove(key)) {
                    JsonNode tools = msg.path("result").get("tools");
                    List<JsonNode> listed = new ArrayList<>();
                    if (tools != null && tools.isArray()) {
                        tools.forEach(listed::add);
                    }
                    listings.add(listed);
                }
            }
        }
        return listings;
    }
}
