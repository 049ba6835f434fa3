package dev.stretto.cli.learn.sessions;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.cli.learn.ByteOrder;
import dev.stretto.trace.log.SessionLog;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;

/**
 * The input contracts a flow pins (stretto-formats 2.10): for each listed tool with an
 * {@code inputSchema}, its properties as {@code name:type}, {@code !} for required ones,
 * sorted and joined with {@code ", "}. A proxy serving the flow stops looking a tool up once
 * its live contract differs.
 */
public final class Contracts {

    private Contracts() {
    }

    /** The contracts of every tool the logs listed; later listings replace earlier ones. */
    public static SortedMap<String, String> ofLogs(List<SessionLog> logs) {
        SortedMap<String, String> contracts = ByteOrder.map();
        for (SessionLog log : logs) {
            for (List<JsonNode> listing : ToolListings.of(log)) {
                for (JsonNode tool : listing) {
                    JsonNode name = tool.get("name");
                    JsonNode schema = tool.get("inputSchema");
                    if (name != null && name.isTextual() && schema != null && !schema.isNull()) {
                        contracts.put(name.textValue(), of(schema));
                    }
                }
            }
        }
        return contracts;
    }

    /** The contract of one input schema. */
    static String of(JsonNode schema) {
        Set<String> required = new HashSet<>();
        for (JsonNode r : schema.path("required")) {
            if (r.isTextual()) {
                required.add(r.textValue());
            }
        }
        List<String> parts = new ArrayList<>();
        JsonNode props = schema.get("properties");
        if (props != null && props.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = props.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> p = it.next();
                parts.add(p.getKey() + ":" + typeOf(p.getValue().get("type")) + (required.contains(p.getKey()) ? "!" : ""));
            }
        }
        parts.sort(ByteOrder.STRINGS);
        return String.join(", ", parts);
    }

    private static String typeOf(JsonNode type) {
        if (type != null && type.isTextual()) {
            return type.textValue();
        }
        if (type != null && type.isArray()) {
            List<String> names = new ArrayList<>();
            for (JsonNode t : type) {
                if (t.isTextual()) {
                    names.add(t.textValue());
                }
            }
            return String.join("|", names);
        }
        return "any";
    }
}
