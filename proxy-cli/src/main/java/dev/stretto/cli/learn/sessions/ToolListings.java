package dev.stretto.cli.learn.sessions;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.json.CanonicalJson;
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
        for (LogMessages.Message m : LogMessages.of(log)) {
            JsonNode msg = m.json();
            JsonNode id = msg.get("id");
            if (id == null || id.isNull()) {
                continue;
            }
            String key = id.isTextual() ? "s" + id.textValue() : "j" + CanonicalJson.write(id);
            JsonNode method = msg.get("method");
            if (method != null) {
                if (m.from() == Source.CLIENT && "tools/list".equals(method.textValue())) {
                    asked.add(key);
                }
            } else if (m.from() != Source.CLIENT && asked.remove(key)) {
                JsonNode tools = msg.path("result").get("tools");
                List<JsonNode> listed = new ArrayList<>();
                if (tools != null && tools.isArray()) {
                    tools.forEach(listed::add);
                }
                listings.add(listed);
            }
        }
        return listings;
    }
}
