package dev.stretto.trace.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.json.JsonRpcId;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The tool lists a server gave in one session: each answer to a {@code tools/list} request of
 * the client (matched by {@linkplain JsonRpcId#key id}; the first answer only), as its {@code
 * result.tools} array. Batches are read message by message; conversation lines and lines that
 * are not JSON are skipped. What manifests, contracts and merged logs take from listings is
 * read here.
 */
public final class ToolListings {

    private ToolListings() {
    }

    /**
     * The listings of a session.
     *
     * @param log the session log
     * @return each listing in log order, each the listed tools in order (an answer without a
     *         {@code tools} array lists none)
     */
    public static List<List<JsonNode>> of(SessionLog log) {
        List<List<JsonNode>> listings = new ArrayList<>();
        Set<String> asked = new HashSet<>();
        for (LogEntry e : log.entries()) {
            if (e.from() == Source.CONTEXT || !(e.payload() instanceof Payload.Message m)) {
                continue;
            }
            Optional<JsonNode> parsed = m.tree();
            if (parsed.isEmpty()) {
                continue;
            }
            JsonNode node = parsed.get();
            for (JsonNode msg : node.isArray() ? node : List.of(node)) {
                JsonNode id = msg.isObject() ? msg.get("id") : null;
                if (id == null || id.isNull()) {
                    continue;
                }
                String key = JsonRpcId.key(id);
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
